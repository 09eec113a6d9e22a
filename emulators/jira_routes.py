"""Jira REST at the root: Cloud v3 (ADF) and Server v2 (text) issues, comments, transitions."""

import base64
import binascii
from typing import Any

from fastapi import APIRouter, Depends, Query, Request, Response

from emulators.state import EmulatorError, EmulatorState, now
from integrations.adf import adf_to_markdown, markdown_to_adf

API = "/rest/api/{version}"
BOT_ACCOUNT_ID = "ticketsmith-bot"
NOT_FOUND = "Issue does not exist or you do not have permission to see it."
# status name -> (status id, status category key)
STATUSES = {
    "To Do": ("10000", "new"),
    "In Progress": ("3", "indeterminate"),
    "In Review": ("10001", "indeterminate"),
    "Done": ("10002", "done"),
}
TRANSITIONS = {"11": "To Do", "21": "In Progress", "31": "In Review", "41": "Done"}


def jira_error(status_code: int, *messages: str, **errors: str) -> EmulatorError:
    """An error with Jira's body shape."""
    return EmulatorError(status_code, {"errorMessages": list(messages), "errors": errors})


def jira_time() -> str:
    """A timestamp in Jira's format, 2025-01-06T09:00:00.000+0000."""
    t = now()
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}+0000"


def check_version(version: int) -> None:
    """Only v2 and v3 exist."""
    if version not in (2, 3):
        raise jira_error(404, "No API at this version")


def create_jira_router(state: EmulatorState) -> APIRouter:
    """The Jira routes over the shared state."""
    api = APIRouter(prefix=API, tags=["jira"], dependencies=[Depends(check_version)])

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

    def user_json(account_id: str, base: str) -> dict[str, Any]:
        user = state.user(account_id) or {"accountId": account_id, "displayName": account_id}
        return {
            "self": f"{base}/rest/api/3/user?accountId={account_id}",
            "accountId": account_id,
            "displayName": user["displayName"],
            "emailAddress": user.get("emailAddress"),
            "accountType": user.get("accountType", "atlassian"),
            "active": True,
            "timeZone": "UTC",
        }

    def comment_json(issue: dict[str, Any], c: dict[str, Any], version: int, base: str) -> Any:
        author = user_json(c["author"], base)
        return {
            "self": f"{base}/rest/api/{version}/issue/{issue['id']}/comment/{c['id']}",
            "id": c["id"],
            "author": author,
            "updateAuthor": author,
            "body": c["body"] if version == 3 else adf_to_markdown(c["body"]),
            "created": c["created"],
            "updated": c["updated"],
            "jsdPublic": True,
        }

    def issue_json(issue: dict[str, Any], version: int, base: str, wanted: str | None) -> Any:
        status_id, category = STATUSES[issue["status"]]
        project = next(p for p in state.data["projects"] if p["key"] == issue["project"])
        description = issue["description"]
        comments = [comment_json(issue, c, version, base) for c in issue["comments"]]
        fields = {
            "summary": issue["summary"],
            "description": description if version == 3 else adf_to_markdown(description) or None,
            "labels": issue["labels"],
            "status": {
                "self": f"{base}/rest/api/{version}/status/{status_id}",
                "id": status_id,
                "name": issue["status"],
                "statusCategory": {"key": category},
            },
            "reporter": user_json(issue["reporter"], base),
            "issuetype": {"name": issue["issuetype"]},
            "project": {"id": project["id"], "key": project["key"], "name": project["name"]},
            "created": issue["created"],
            "updated": issue["updated"],
            "comment": {
                "comments": comments,
                "self": f"{base}/rest/api/{version}/issue/{issue['id']}/comment",
                "maxResults": len(comments),
                "total": len(comments),
                "startAt": 0,
            },
        }
        names = {n.strip() for n in (wanted or "").split(",") if n.strip()}
        if names and not names & {"*all", "*navigable"}:
            fields = {k: v for k, v in fields.items() if k in names}
        return {
            "id": issue["id"],
            "key": issue["key"],
            "self": f"{base}/rest/api/{version}/issue/{issue['id']}",
            "fields": fields,
        }

    def comment_body(value: Any, version: int) -> dict[str, Any]:
        """A comment body as stored (ADF), validated the way Jira does."""
        if version == 2 and isinstance(value, str):
            return markdown_to_adf(value)
        if version == 3 and isinstance(value, dict) and value.get("type") == "doc":
            return value
        expected = "a string" if version == 2 else "an Atlassian Document (see the ADF format)"
        raise jira_error(400, comment=f"Operation value must be {expected}")

    @api.get("/issue/{key}")
    def get_issue(key: str, version: int, request: Request, fields: str | None = None) -> Any:
        return issue_json(find_issue(key), version, _base(request), fields)

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
            "comments": [comment_json(issue, c, version, _base(request)) for c in page],
        }

    @api.post("/issue/{key}/comment", status_code=201)
    async def add_comment(key: str, version: int, request: Request) -> Any:
        author = actor(request)
        issue = find_issue(key)
        body = comment_body((await _json(request)).get("body"), version)
        if not adf_to_markdown(body).strip():
            raise jira_error(400, comment="Comment body can not be empty!")
        created = jira_time()
        comment_id = str(state.next_id("jira-comment", 10000))
        comment = {"id": comment_id, "author": author["accountId"], "body": body}
        comment |= {"created": created, "updated": created}
        issue["comments"].append(comment)
        issue["updated"] = created
        state.save()
        return comment_json(issue, comment, version, _base(request))

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
        actor(request)
        issue = find_issue(key)
        transition_id = str(((await _json(request)).get("transition") or {}).get("id", ""))
        target = TRANSITIONS.get(transition_id)
        if target is None or target == issue["status"]:
            raise jira_error(400, f"Transition id '{transition_id}' is not valid for this issue.")
        issue["status"] = target
        issue["updated"] = jira_time()
        state.save()
        return Response(status_code=204)

    return api


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
