"""Merging a merge request for real in the bare repository (`PUT .../merge`), sent as a Merge
Request Hook `merge` and, for the target branch it moves, as a push."""

from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, Request

from emulators.github.mergeable import git_out, merge_tree
from emulators.gitlab.events import GitLabEvents
from emulators.gitlab.pushes import GitLabPushes
from emulators.gitlab.routes import branch_head, mr_json, require_token
from emulators.gitlab.store import (
    bare_of,
    base_of,
    caller,
    find_mr,
    find_project,
    gitlab_error,
    gitlab_time,
    is_draft,
)
from emulators.state import EmulatorState

OptionalJson = Annotated[dict[str, Any] | None, Body()]


def create_merge_router(
    state: EmulatorState, repos_root: Path, events: GitLabEvents, pushes: GitLabPushes
) -> APIRouter:
    """`PUT /projects/:id/merge_requests/:iid/merge` (closing is the merge request's PUT)."""
    api = APIRouter(prefix="/api/v4", dependencies=[Depends(require_token)], tags=["gitlab"])

    @api.put("/projects/{project_id:path}/merge_requests/{iid}/merge")
    async def merge(
        project_id: str, iid: int, request: Request, payload: OptionalJson = None
    ) -> Any:
        p = find_project(state, project_id)
        mr, options = find_mr(p, iid), payload or {}
        if mr["state"] != "opened" or is_draft(mr["title"]):
            raise gitlab_error(405, "405 Method Not Allowed")
        bare = bare_of(repos_root, p)
        head = await branch_head(bare, mr["source_branch"])
        target = await branch_head(bare, mr["target_branch"])
        if head is None or target is None:
            raise gitlab_error(405, "405 Method Not Allowed")
        if options.get("sha") and options["sha"] != head:
            raise gitlab_error(409, f"SHA does not match HEAD of source branch: {head}")
        tree = await merge_tree(bare, target, head)
        if tree is None:
            raise gitlab_error(406, "Branch cannot be merged")
        merger, path = caller(state, request), p["path_with_namespace"]
        message = options.get("merge_commit_message") or (
            f"Merge branch '{mr['source_branch']}' into '{mr['target_branch']}'\n\n"
            f"{mr['title']}\n\nSee merge request {path}!{mr['iid']}"
        )
        code, sha = await git_out(
            bare, "-c", f"user.name={merger.get('name', merger['username'])}",
            "-c", f"user.email={merger['username']}@users.noreply.gitlab.local",
            "commit-tree", tree, "-p", target, "-p", head, "-m", message,
        )  # fmt: skip
        moved, _ = await git_out(
            bare, "update-ref", f"refs/heads/{mr['target_branch']}", sha, target
        )
        if code != 0 or moved != 0:
            raise gitlab_error(500, "500 Internal Server Error")
        stamp = gitlab_time()
        changes = {"state_id": {"previous": 1, "current": 3},
                   "updated_at": {"previous": mr["updated_at"], "current": stamp}}  # fmt: skip
        mr.update(state="merged", merged_at=stamp, updated_at=stamp, merged_by_id=merger["id"],
                  merge_commit_sha=sha, sha=head)  # fmt: skip
        state.save()
        base = base_of(request)
        await events.merge_request(p, mr, merger, "merge", base, changes)
        await pushes.moved(p, [(f"refs/heads/{mr['target_branch']}", target, sha)], merger, base)
        return mr_json(state, p, mr, base)

    return api
