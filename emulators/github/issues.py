"""GitHub Issues: issues opened, read, labelled, commented and closed (by hand or by a merged
pull request's closing keywords), each change sent as GitHub's `issues` webhook; team
memberships for approvers."""

import re
from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, Request

from emulators.github import hook_shapes as hook_shapes
from emulators.github import shapes as shapes
from emulators.github.errors import github_error
from emulators.github.routes import field_error, github_time, require_token, validation_failed
from emulators.github.store import (
    Json,
    base_url,
    collection,
    find_repo,
    find_thread,
    is_pull,
    request_caller,
)
from emulators.github.webhooks import GitHubWebhooks
from emulators.state import EmulatorError, EmulatorState

JsonObject = Annotated[dict[str, Any], Body()]
# GitHub's closing keywords, before `#n` or `owner/name#n`.
CLOSING = re.compile(
    r"\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\s*:?\s+(?:(?P<repo>[\w.-]+/[\w.-]+))?#(?P<n>\d+)",
    re.IGNORECASE,
)


def send_issue_event(
    state: EmulatorState,
    hooks: GitHubWebhooks,
    issue: Json,
    action: str,
    sender: str,
    base: str,
    **fields: Any,
) -> None:
    """An `issues` webhook about one issue (`fields`: the event's own, such as `label`)."""
    r = find_repo(state, *issue["repo"].split("/"))
    hooks.send("issues", {
        "action": action, "issue": hook_shapes.issue(issue, base), **fields,
        "repository": hook_shapes.repository(r, base), "sender": hook_shapes.person(sender, base),
    })  # fmt: skip


def close_issue(
    state: EmulatorState,
    hooks: GitHubWebhooks,
    issue: Json,
    sender: str,
    base: str,
    reason: str = "completed",
) -> None:
    """Close an open issue and say so."""
    if issue["state"] != "open":
        return
    closed = github_time()
    issue.update(state="closed", state_reason=reason, closed_at=closed, updated_at=closed)
    state.save()
    send_issue_event(state, hooks, issue, "closed", sender, base)


def close_fixed_issues(
    state: EmulatorState, hooks: GitHubWebhooks, pr: Json, sender: str, base: str
) -> list[int]:
    """Close the issues a merged pull request's body names with a closing keyword."""
    closed = []
    for found in CLOSING.finditer(pr.get("body") or ""):
        full = found["repo"] or pr["repo"]
        owner, _, name = full.partition("/")
        try:
            issue = find_thread(state, owner, name, int(found["n"]))
        except EmulatorError:  # a reference to nothing closes nothing, as on GitHub
            continue
        if not is_pull(issue) and issue["state"] == "open":
            close_issue(state, hooks, issue, sender, base)
            closed.append(issue["number"])
    return closed


def create_issues_router(state: EmulatorState, hooks: GitHubWebhooks) -> APIRouter:
    """The issue routes of one emulator (comments and labels are shared with pull requests)."""
    router = APIRouter(prefix="/api/v3", dependencies=[Depends(require_token)])

    def find_issue(owner: str, repo: str, number: int) -> Json:
        return find_thread(state, owner, repo, number)

    @router.post("/repos/{owner}/{repo}/issues", status_code=201)
    async def create_issue(owner: str, repo: str, request: Request, payload: JsonObject) -> Any:
        r = find_repo(state, owner, repo)
        if not str(payload.get("title") or "").strip():
            raise validation_failed(field_error("Issue", "title", "missing_field"))
        labels = payload.get("labels") or []
        if not isinstance(labels, list) or not all(isinstance(n, str) for n in labels):
            raise validation_failed(field_error("Issue", "labels"))
        full, created = f"{r['owner']}/{r['name']}", github_time()
        login, association = request_caller(state, request)
        issue = {
            "id": state.next_id("github-id", 5000), "number": state.next_id(f"number:{full}"),
            "repo": full, "title": payload["title"], "body": payload.get("body"),
            "user": login, "association": association, "state": "open", "state_reason": None,
            "labels": list(dict.fromkeys(labels)), "comments": [], "created_at": created,
            "updated_at": created, "closed_at": None,
        }  # fmt: skip
        collection(state, "github_issues").append(issue)
        state.save()
        send_issue_event(state, hooks, issue, "opened", login, base_url(request))
        return hook_shapes.issue(issue, base_url(request))

    @router.get("/repos/{owner}/{repo}/issues/{number}")
    def get_issue(owner: str, repo: str, number: int, request: Request) -> Any:
        return hook_shapes.issue(find_issue(owner, repo, number), base_url(request))

    @router.patch("/repos/{owner}/{repo}/issues/{number}")
    async def update_issue(
        owner: str, repo: str, number: int, request: Request, payload: JsonObject
    ) -> Any:
        issue = find_issue(owner, repo, number)
        if is_pull(issue):
            raise github_error(422, "Update a pull request through its pulls endpoint")
        if payload.get("state") not in (None, "open", "closed"):
            raise validation_failed(field_error("Issue", "state"))
        for name in ("title", "body"):
            if name in payload:
                issue[name] = payload[name]
        issue["updated_at"] = github_time()
        login, base = request_caller(state, request)[0], base_url(request)
        if payload.get("state") == "closed":
            close_issue(
                state, hooks, issue, login, base, payload.get("state_reason") or "completed"
            )
        elif payload.get("state") == "open" and issue["state"] == "closed":
            issue.update(state="open", state_reason="reopened", closed_at=None)
            send_issue_event(state, hooks, issue, "reopened", login, base)
        state.save()
        return hook_shapes.issue(issue, base)

    @router.get("/orgs/{org}/teams/{team}/memberships/{login}")
    def team_membership(org: str, team: str, login: str, request: Request) -> Any:
        members = state.data.get("github_teams", {}).get(f"{org}/{team}".casefold(), [])
        if login.casefold() not in {m.casefold() for m in members}:
            raise github_error(404, "Not Found")
        url = f"{base_url(request)}/api/v3/orgs/{org}/teams/{team}/memberships/{login}"
        return {"url": url, "role": "member", "state": "active"}

    return router


def announce_label(
    state: EmulatorState, hooks: GitHubWebhooks, thread: Json, label: str, request: Request
) -> None:
    """The `issues` labeled webhook of a label added to an issue (pull requests send none)."""
    if is_pull(thread):
        return
    base = base_url(request)
    sender = request_caller(state, request)[0]
    labelled = shapes.label(label, base, thread["repo"])
    send_issue_event(state, hooks, thread, "labeled", sender, base, label=labelled)
