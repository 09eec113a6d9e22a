"""GitLab REST API v4 under /api/v4: projects, merge requests and their notes, in GitLab's
shapes and errors; the git repositories are the emulator's git hosting's."""

import asyncio
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, Query, Request

from emulators.state import EmulatorError, EmulatorState, now

JsonObject = Annotated[dict[str, Any], Body()]
BOT_USERNAME = "ticketsmith-bot"
DRAFT_PREFIXES = ("draft:", "[draft]", "(draft)")


def gitlab_error(status_code: int, message: Any) -> EmulatorError:
    """An error with GitLab's body shape (`message`, or `error` for 401)."""
    key = "error" if status_code == 401 else "message"
    return EmulatorError(status_code, {key: message})


def require_token(request: Request) -> None:
    """A PRIVATE-TOKEN or bearer token is required, as on GitLab (any non-empty one is taken)."""
    bearer = request.headers.get("authorization", "").partition(" ")[2]
    if not (request.headers.get("private-token", "").strip() or bearer.strip()):
        raise gitlab_error(401, "401 Unauthorized")


def gitlab_time() -> str:
    """A timestamp in GitLab's format."""
    return now().strftime("%Y-%m-%dT%H:%M:%S.000Z")


def is_draft(title: str) -> bool:
    """GitLab's rule: a title starting with a draft prefix makes a draft merge request."""
    return title.strip().lower().startswith(DRAFT_PREFIXES)


def projects(state: EmulatorState) -> list[dict[str, Any]]:
    """The GitLab projects of the state (older state files have none)."""
    found: list[dict[str, Any]] = state.data.setdefault("gitlab_projects", [])
    return found


def gitlab_project_paths(state: EmulatorState) -> set[str]:
    """Every GitLab project's `namespace/name`, lower-cased."""
    return {p["path_with_namespace"].lower() for p in projects(state)}


async def branch_exists(bare: Path, branch: str) -> bool:
    """Whether the bare repository has the branch."""
    proc = await asyncio.create_subprocess_exec(
        "git", "--git-dir", str(bare), "rev-parse", "--verify", "--quiet", f"refs/heads/{branch}",
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL,
    )  # fmt: skip
    return await proc.wait() == 0


def create_gitlab_router(state: EmulatorState, repos_root: Path) -> APIRouter:
    """The v4 routes of one emulator."""
    api = APIRouter(prefix="/api/v4", dependencies=[Depends(require_token)], tags=["gitlab"])

    def find_project(project_id: str) -> dict[str, Any]:
        for p in projects(state):
            if project_id in (str(p["id"]), p["path_with_namespace"]):
                return p
        raise gitlab_error(404, "404 Project Not Found")

    def merge_requests(project: dict[str, Any]) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = project.setdefault("merge_requests", [])
        return found

    def find_mr(project: dict[str, Any], iid: int) -> dict[str, Any]:
        for mr in merge_requests(project):
            if mr["iid"] == iid:
                return mr
        raise gitlab_error(404, "404 Not found")

    def project_json(p: dict[str, Any], base: str) -> dict[str, Any]:
        path = p["path_with_namespace"]
        return {
            "id": p["id"], "name": path.split("/")[-1], "path": path.split("/")[-1],
            "path_with_namespace": path, "default_branch": p.get("default_branch", "main"),
            "web_url": f"{base}/{path}", "http_url_to_repo": f"{base}/{path}.git",
        }  # fmt: skip

    def mr_json(p: dict[str, Any], mr: dict[str, Any], base: str) -> dict[str, Any]:
        path = p["path_with_namespace"]
        return {
            "id": mr["id"], "iid": mr["iid"], "project_id": p["id"], "title": mr["title"],
            "description": mr["description"], "state": mr["state"],
            "draft": is_draft(mr["title"]), "work_in_progress": is_draft(mr["title"]),
            "source_branch": mr["source_branch"], "target_branch": mr["target_branch"],
            "author": {"username": mr["author"]}, "created_at": mr["created_at"],
            "updated_at": mr["updated_at"], "merged_at": mr.get("merged_at"),
            "web_url": f"{base}/{path}/-/merge_requests/{mr['iid']}",
            "source_project_id": p["id"], "target_project_id": p["id"],
        }  # fmt: skip

    def base_of(request: Request) -> str:
        return str(request.base_url).rstrip("/")

    @api.get("/projects/{project_id:path}/merge_requests")
    def list_merge_requests(
        project_id: str,
        request: Request,
        state_: str = Query("all", alias="state"),
        source_branch: str | None = None,
    ) -> Any:
        p = find_project(project_id)
        return [
            mr_json(p, mr, base_of(request))
            for mr in reversed(merge_requests(p))
            if state_ in ("all", mr["state"])
            and (source_branch is None or mr["source_branch"] == source_branch)
        ]

    @api.post("/projects/{project_id:path}/merge_requests", status_code=201)
    async def create_merge_request(project_id: str, request: Request, payload: JsonObject) -> Any:
        p = find_project(project_id)
        missing = [f for f in ("title", "source_branch", "target_branch") if not payload.get(f)]
        if missing:
            raise gitlab_error(400, f"{missing[0]} is missing")
        bare = repos_root / f"{p['path_with_namespace']}.git"
        for field in ("source_branch", "target_branch"):
            if not await branch_exists(bare, str(payload[field])):
                raise gitlab_error(400, {field: ["is invalid"]})
        source = str(payload["source_branch"])
        if source == payload["target_branch"]:
            raise gitlab_error(400, ["You can't use same project/branch for source and target"])
        if any(m["source_branch"] == source and m["state"] == "opened" for m in merge_requests(p)):
            raise gitlab_error(
                409, [f"Another open merge request already exists for this source branch: {source}"]
            )
        created = gitlab_time()
        mr = {
            "id": state.next_id("gitlab-id", 7000), "iid": len(merge_requests(p)) + 1,
            "title": payload["title"], "description": payload.get("description") or "",
            "state": "opened", "source_branch": source,
            "target_branch": str(payload["target_branch"]), "author": BOT_USERNAME,
            "created_at": created, "updated_at": created, "notes": [],
        }  # fmt: skip
        merge_requests(p).append(mr)
        state.save()
        return mr_json(p, mr, base_of(request))

    @api.get("/projects/{project_id:path}/merge_requests/{iid}")
    def get_merge_request(project_id: str, iid: int, request: Request) -> Any:
        p = find_project(project_id)
        return mr_json(p, find_mr(p, iid), base_of(request))

    @api.put("/projects/{project_id:path}/merge_requests/{iid}")
    def update_merge_request(
        project_id: str, iid: int, request: Request, payload: JsonObject
    ) -> Any:
        p = find_project(project_id)
        mr = find_mr(p, iid)
        for name in ("title", "description"):
            if name in payload:
                mr[name] = payload[name]
        if payload.get("state_event") == "close":
            mr["state"] = "closed"
        mr["updated_at"] = gitlab_time()
        state.save()
        return mr_json(p, mr, base_of(request))

    @api.get("/projects/{project_id:path}/merge_requests/{iid}/notes")
    def list_notes(project_id: str, iid: int) -> Any:
        return find_mr(find_project(project_id), iid)["notes"]

    @api.post("/projects/{project_id:path}/merge_requests/{iid}/notes", status_code=201)
    def add_note(project_id: str, iid: int, payload: JsonObject) -> Any:
        mr = find_mr(find_project(project_id), iid)
        if not str(payload.get("body") or "").strip():
            raise gitlab_error(400, "body is missing")
        note = {
            "id": state.next_id("gitlab-id", 7000), "body": payload["body"],
            "author": {"username": BOT_USERNAME}, "created_at": gitlab_time(), "system": False,
        }  # fmt: skip
        mr["notes"].append(note)
        state.save()
        return note

    @api.get("/projects/{project_id:path}")
    def get_project(project_id: str, request: Request) -> Any:
        return project_json(find_project(project_id), base_of(request))

    return api
