"""Jira REST at the root: Cloud v3 (ADF) and Server v2 (wiki markup) issues, comments,
transitions and labels, with `comment_created` and `jira:issue_updated` webhooks."""

import base64
import binascii
from typing import Any

from fastapi import APIRouter, Depends, Query, Request, Response

from emulators.jira.views import (
    STATUSES,
    JiraViews,
    is_blank,
    jira_error,
    jira_time,
    parse_text,
)
from emulators.jira.webhooks import JiraWebhooks
from emulators.state import EmulatorState

API = "/rest/api/{version}"
BOT_ACCOUNT_ID = "ticketsmith-bot"
NOT_FOUND = "Issue does not exist or you do not have permission to see it."
TRANSITIONS = {"11": "To Do", "21": "In Progress", "31": "In Review", "41": "Done"}
EDITABLE = {"labels", "summary"}


def check_version(version: int) -> None:
    """Only v2 and v3 exist."""
    if version not in (2, 3):
        raise jira_error(404, "No API at this version")


def create_jira_router(state: EmulatorState, webhooks: JiraWebhooks | None = None) -> APIRouter:
    """The Jira routes over the shared state; changes are sent to `webhooks` when given."""
    api = APIRouter(prefix=API, tags=["jira"], dependencies=[Depends(check_version)])
    views = JiraViews(state)
    hooks = webhooks or JiraWebhooks(None)

    def actor(request: Request) -> dict[str, Any]:
        """Who makes a change: X-Emulator-User, the Basic-auth email, else the bot."""
        if account_id := request.headers.get("x-emulator-user"):
            if user := state.user(account_id):
                return user
            raise jira_error(401, f"Unknown emulator user {account_id}")
        scheme, _, credentials = request.headers.get("authorization", "").partition(" ")
        if not credentials.strip():
            raise jira_error(
                401, "You are not authenticated. Authentication required to perform this operation."
            )
        if scheme.lower() == "basic":
            try:
                email = base64.b64decode(credentials).decode().partition(":")[0]
            except (binascii.Error, UnicodeDecodeError) as err:
                raise jira_error(401, "Basic authentication credentials are malformed") from err
            users = state.data["users"]
            if user := next((u for u in users if u.get("emailAddress") == email), None):
                return user
        return state.user(BOT_ACCOUNT_ID) or {"accountId": BOT_ACCOUNT_ID, "displayName": "bot"}

    def find_issue(key: str) -> dict[str, Any]:
        issues = state.data["issues"]
        issue = issues.get(key.upper()) or next(
            (i for i in issues.values() if i["id"] == key), None
        )
        if issue is None:
            raise jira_error(404, NOT_FOUND)
        return issue

    def changed(issue: dict[str, Any], who: str, items: list[dict[str, Any]], base: str) -> None:
        """Save an edit and tell the webhook receiver about it."""
        issue["updated"] = jira_time()
        state.save()
        hooks.emit(views.issue_updated(issue, who, items, base))

    @api.get("/user/groups")
    def user_groups(version: int, request: Request, accountId: str = "") -> Any:  # noqa: N803
        """The groups of a user (Cloud: by account id)."""
        user = state.user(accountId)
        if user is None:
            raise jira_error(
                404, f"Specified user does not exist or you do not have access: {accountId}"
            )
        return [views.group(name, _base(request), version) for name in user.get("groups", [])]

    @api.get("/user")
    def get_user(
        version: int,
        request: Request,
        accountId: str = "",
        username: str = "",
        expand: str = "",  # noqa: N803
    ) -> Any:
        """A user (Cloud: by account id; Server: by user name), its groups when expanded."""
        account = accountId or username
        user = state.user(account)
        if user is None:
            raise jira_error(404, f"The user named '{account}' does not exist")
        shown = views.user(account, _base(request), version)
        if "groups" in expand.split(","):
            items = [views.group(n, _base(request), version) for n in user.get("groups", [])]
            shown["groups"] = {"size": len(items), "items": items}
        return shown

    @api.get("/field")
    def list_fields() -> Any:
        return views.field_list()

    @api.get("/issue/{key}")
    def get_issue(key: str, version: int, request: Request, fields: str | None = None) -> Any:
        return views.issue(find_issue(key), version, _base(request), fields)

    @api.put("/issue/{key}", status_code=204)
    async def edit_issue(key: str, request: Request) -> Response:
        who = actor(request)
        issue = find_issue(key)
        payload = await _json(request)
        fields, update = payload.get("fields") or {}, payload.get("update") or {}
        if unknown := sorted((set(fields) | set(update)) - EDITABLE):
            message = "Field '{}' cannot be set. It is not on the appropriate screen, or unknown."
            raise jira_error(400, **{name: message.format(name) for name in unknown})
        items = []
        labels = _edit_labels(issue["labels"], fields.get("labels"), update.get("labels") or [])
        if labels != issue["labels"]:
            items.append(_change("labels", " ".join(issue["labels"]), " ".join(labels)))
            issue["labels"] = labels
        summary = fields.get("summary", issue["summary"])
        if not isinstance(summary, str) or not summary.strip():
            raise jira_error(400, summary="You must specify a summary of the issue.")
        if summary != issue["summary"]:
            items.append(_change("summary", issue["summary"], summary))
            issue["summary"] = summary
        if items:
            changed(issue, who["accountId"], items, _base(request))
        return Response(status_code=204)

    @api.get("/issue/{key}/comment")
    def list_comments(
        key: str,
        version: int,
        request: Request,
        start_at: int = Query(0, alias="startAt", ge=0),
        max_results: int = Query(5000, alias="maxResults", ge=0, le=5000),
        order_by: str = Query("created", alias="orderBy"),
    ) -> Any:
        issue = find_issue(key)
        comments = issue["comments"][::-1] if order_by == "-created" else issue["comments"]
        page = comments[start_at : start_at + max_results]
        return {
            "startAt": start_at,
            "maxResults": max_results,
            "total": len(comments),
            "comments": [views.comment(issue, c, version, _base(request)) for c in page],
        }

    @api.post("/issue/{key}/comment", status_code=201)
    async def add_comment(key: str, version: int, request: Request) -> Any:
        author = actor(request)
        issue = find_issue(key)
        body = parse_text((await _json(request)).get("body"), version, "comment")
        if is_blank(body):
            raise jira_error(400, comment="Comment body can not be empty!")
        created = jira_time()
        comment_id = str(state.next_id("jira-comment", 10000))
        comment = {"id": comment_id, "author": author["accountId"], "body": body}
        comment |= {"created": created, "updated": created}
        issue["comments"].append(comment)
        issue["updated"] = created
        state.save()
        for event in views.comment_events(issue, comment, _base(request), hooks.server):
            hooks.emit(event)
        return views.comment(issue, comment, version, _base(request))

    @api.get("/issue/{key}/transitions")
    def list_transitions(key: str) -> Any:
        issue = find_issue(key)
        return {
            "expand": "transitions",
            "transitions": [
                _transition_json(t_id, name)
                for t_id, name in TRANSITIONS.items()
                if name != issue["status"]
            ],
        }

    @api.post("/issue/{key}/transitions", status_code=204)
    async def do_transition(key: str, request: Request) -> Response:
        who = actor(request)
        issue = find_issue(key)
        transition_id = str(((await _json(request)).get("transition") or {}).get("id", ""))
        target = TRANSITIONS.get(transition_id)
        if target is None or target == issue["status"]:
            raise jira_error(400, f"Transition id '{transition_id}' is not valid for this issue.")
        item = _change("status", issue["status"], target)
        item |= {"from": STATUSES[issue["status"]][0], "to": STATUSES[target][0]}
        issue["status"] = target
        changed(issue, who["accountId"], [item], _base(request))
        return Response(status_code=204)

    return api


def _edit_labels(current: list[str], replace: Any, operations: Any) -> list[str]:
    """Labels after `fields.labels` (replace) and `update.labels` (add/remove/set operations)."""
    labels = list(current)
    if replace is not None:
        labels = _label_list(replace)
    if not isinstance(operations, list):
        raise jira_error(400, labels="Operations on labels must be a list")
    for operation in operations:
        if not isinstance(operation, dict) or len(operation) != 1:
            raise jira_error(400, labels="Each operation needs one of add, remove or set")
        ((verb, value),) = operation.items()
        if verb == "set":
            labels = _label_list(value)
        elif verb == "add":
            labels += [v for v in _label_list([value]) if v not in labels]
        elif verb == "remove":
            labels = [label for label in labels if label != value]
        else:
            raise jira_error(400, labels=f"Operation '{verb}' is not supported on labels")
    return labels


def _label_list(value: Any) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise jira_error(400, labels="Labels must be a list of strings")
    for label in value:
        if not label:
            raise jira_error(400, labels="A label can not be empty.")
        if any(c.isspace() for c in label):
            raise jira_error(400, labels=f"The label '{label}' contains spaces which is invalid.")
    return list(dict.fromkeys(value))


def _change(field: str, before: str, after: str) -> dict[str, Any]:
    """One changelog item of a webhook."""
    return {
        "field": field,
        "fieldtype": "jira",
        "fieldId": field,
        "from": None,
        "fromString": before,
        "to": None,
        "toString": after,
    }


def _transition_json(transition_id: str, name: str) -> dict[str, Any]:
    status_id, category = STATUSES[name]
    to = {"id": status_id, "name": name, "statusCategory": {"key": category}}
    return {"id": transition_id, "name": name, "to": to, "hasScreen": False, "isGlobal": True}


def _base(request: Request) -> str:
    return str(request.base_url).rstrip("/")


async def _json(request: Request) -> dict[str, Any]:
    """The request's JSON object, or Jira's 400 when it is not one."""
    try:
        body = await request.json()
    except ValueError as err:
        raise jira_error(400, "Unexpected character in the request body: not valid JSON") from err
    if not isinstance(body, dict):
        raise jira_error(400, "The request body must be a JSON object")
    return body
