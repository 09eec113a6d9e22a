"""GitLab REST API v4 under /api/v4: projects, their members, and merge requests in GitLab's
shapes and errors, each change sent as a Merge Request Hook; the git repositories are the
emulator's git hosting's."""

from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, Query, Request

from emulators.github.mergeable import git_out
from emulators.gitlab import shapes
from emulators.gitlab.events import GitLabEvents
from emulators.gitlab.store import (
    Json,
    bare_of,
    base_of,
    caller,
    find_mr,
    find_project,
    gitlab_error,
    gitlab_time,
    is_draft,
    owned_list,
    projects,
    request_token,
    user_by_id,
    user_by_name,
)
from emulators.state import EmulatorState

JsonObject = Annotated[dict[str, Any], Body()]
STATE_IDS = {"opened": 1, "closed": 2, "merged": 3}
STATE_EVENTS = {"close": ("opened", "closed", "close"), "reopen": ("closed", "opened", "reopen")}


def require_token(request: Request) -> None:
    """A PRIVATE-TOKEN or bearer token is required, as on GitLab (any non-empty one is taken)."""
    if not request_token(request):
        raise gitlab_error(401, "401 Unauthorized")


def gitlab_project_paths(state: EmulatorState) -> set[str]:
    """Every GitLab project's `namespace/name`, lower-cased."""
    return {p["path_with_namespace"].lower() for p in projects(state)}


async def branch_head(bare: Path, branch: str) -> str | None:
    """The commit a branch of the bare repository points at (None: no such branch)."""
    code, sha = await git_out(bare, "rev-parse", "--verify", "--quiet", f"refs/heads/{branch}")
    return sha if code == 0 and sha else None


def mr_json(state: EmulatorState, p: Json, mr: Json, base: str) -> Json:
    """A merge request as the API answers it."""
    merger = user_by_id(state, mr["merged_by_id"]) if mr.get("merged_by_id") else None
    return shapes.merge_request(p, mr, user_by_name(state, mr["author"]), merger, base)


def edits(mr: Json, payload: Json, stamp: str) -> Json:
    """The title and description a PUT changes, as a hook's `changes`."""
    changes: Json = {}
    for name in ("title", "description"):
        if name in payload and payload[name] != mr[name]:
            changes[name] = {"previous": mr[name], "current": payload[name]}
    if "title" in changes and is_draft(mr["title"]) != is_draft(payload["title"]):
        changes["draft"] = {"previous": is_draft(mr["title"]), "current": not is_draft(mr["title"])}
    if changes:
        changes["updated_at"] = {"previous": mr["updated_at"], "current": stamp}
    return changes


def create_gitlab_router(state: EmulatorState, repos_root: Path, events: GitLabEvents) -> APIRouter:
    """The v4 routes of projects, members and merge requests (added after the other GitLab
    routers: the project route's path takes the rest of the URL)."""
    api = APIRouter(prefix="/api/v4", dependencies=[Depends(require_token)], tags=["gitlab"])

    @api.get("/projects/{project_id:path}/members/all/{user_id}")
    def get_member(project_id: str, user_id: int, request: Request) -> Any:
        p = find_project(state, project_id)
        found = next((m for m in p.get("members", []) if m["user_id"] == user_id), None)
        u = user_by_id(state, user_id)
        if found is None or u is None:
            raise gitlab_error(404, "404 Not found")
        return shapes.member(u, found["access_level"], base_of(request))

    @api.get("/projects/{project_id:path}/merge_requests")
    def list_merge_requests(
        project_id: str,
        request: Request,
        state_: str = Query("all", alias="state"),
        source_branch: str | None = None,
    ) -> Any:
        p = find_project(state, project_id)
        return [
            mr_json(state, p, mr, base_of(request))
            for mr in reversed(owned_list(p, "merge_requests"))
            if state_ in ("all", mr["state"])
            and (source_branch is None or mr["source_branch"] == source_branch)
        ]

    @api.post("/projects/{project_id:path}/merge_requests", status_code=201)
    async def create_merge_request(project_id: str, request: Request, payload: JsonObject) -> Any:
        p = find_project(state, project_id)
        missing = [f for f in ("title", "source_branch", "target_branch") if not payload.get(f)]
        if missing:
            raise gitlab_error(400, f"{missing[0]} is missing")
        bare = bare_of(repos_root, p)
        heads = {}
        for field in ("source_branch", "target_branch"):
            heads[field] = await branch_head(bare, str(payload[field]))
            if heads[field] is None:
                raise gitlab_error(400, {field: ["is invalid"]})
        source = str(payload["source_branch"])
        if source == payload["target_branch"]:
            raise gitlab_error(400, ["You can't use same project/branch for source and target"])
        mrs = owned_list(p, "merge_requests")
        if any(m["source_branch"] == source and m["state"] == "opened" for m in mrs):
            raise gitlab_error(
                409, [f"Another open merge request already exists for this source branch: {source}"]
            )
        created, author = gitlab_time(), caller(state, request)
        mr = {
            "id": state.next_id("gitlab-id", 7000), "iid": len(mrs) + 1,
            "title": payload["title"], "description": payload.get("description") or "",
            "state": "opened", "source_branch": source,
            "target_branch": str(payload["target_branch"]), "author": author["username"],
            "created_at": created, "updated_at": created, "sha": heads["source_branch"],
            "notes": [], "discussions": [],
        }  # fmt: skip
        mrs.append(mr)
        state.save()
        await events.merge_request(p, mr, author, "open", base_of(request))
        return mr_json(state, p, mr, base_of(request))

    @api.get("/projects/{project_id:path}/merge_requests/{iid}")
    def get_merge_request(project_id: str, iid: int, request: Request) -> Any:
        p = find_project(state, project_id)
        return mr_json(state, p, find_mr(p, iid), base_of(request))

    @api.put("/projects/{project_id:path}/merge_requests/{iid}")
    async def update_merge_request(
        project_id: str, iid: int, request: Request, payload: JsonObject
    ) -> Any:
        p = find_project(state, project_id)
        mr = find_mr(p, iid)
        stamp, actor = gitlab_time(), caller(state, request)
        changes = edits(mr, payload, stamp)
        for name in ("title", "description"):
            if name in changes:
                mr[name] = payload[name]
        action = "update" if changes else None
        if (event := STATE_EVENTS.get(str(payload.get("state_event")))) and mr["state"] == event[0]:
            changes["state_id"] = {"previous": STATE_IDS[event[0]], "current": STATE_IDS[event[1]]}
            mr["state"], action = event[1], event[2]
            mr["closed_at"] = stamp if event[1] == "closed" else None
        mr["updated_at"] = stamp
        state.save()
        if action:
            await events.merge_request(p, mr, actor, action, base_of(request), changes)
        return mr_json(state, p, mr, base_of(request))

    @api.get("/projects/{project_id:path}")
    def get_project(project_id: str, request: Request) -> Any:
        return shapes.project(find_project(state, project_id), base_of(request))

    return api
