"""Merging and closing pull requests for real in the bare repository, and noticing pushes to
their branches (`synchronize`), each sent as GitHub's webhook."""

from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, Request

from emulators.github_mergeable import git_out, merge_tree
from emulators.github_routes import branch_sha, github_error, github_time, require_token
from emulators.github_store import (
    Json,
    bare_path,
    base_url,
    caller,
    find_pull,
    find_repo,
    pull_event_json,
    repository_json,
    request_caller,
    user_json,
)
from emulators.github_webhooks import GitHubWebhooks
from emulators.state import EmulatorState

JsonObject = Annotated[dict[str, Any], Body()]


def send_pull_event(
    state: EmulatorState, hooks: GitHubWebhooks, pr: Json, action: str, sender: str, base: str,
    **fields: Any,
) -> None:  # fmt: skip
    """A `pull_request` webhook."""
    r = find_repo(state, *pr["repo"].split("/"))
    payload = {"action": action, "number": pr["number"], **fields}
    payload |= {"pull_request": pull_event_json(pr, base), "repository": repository_json(r, base)}
    hooks.send("pull_request", payload | {"sender": user_json(sender)})


def create_merge_router(state: EmulatorState, repos_root: Path, hooks: GitHubWebhooks) -> APIRouter:
    """`PUT .../pulls/{n}/merge` (closing without merging is the pull request's PATCH)."""
    api = APIRouter(prefix="/api/v3/repos/{owner}/{repo}", dependencies=[Depends(require_token)])

    @api.put("/pulls/{number}/merge")
    async def merge(owner: str, repo: str, number: int, request: Request) -> Any:
        pr = find_pull(state, owner, repo, number)
        body = await request.json() if await request.body() else {}
        if pr["state"] != "open":
            raise github_error(405, "Pull Request is not mergeable")
        bare = bare_path(repos_root, find_repo(state, owner, repo))
        base_sha = await branch_sha(bare, pr["base"])
        head_sha = await branch_sha(bare, pr["head"])
        if base_sha is None or head_sha is None:
            raise github_error(422, "Base or head branch is missing")
        if body.get("sha") and body["sha"] != head_sha:
            raise github_error(409, "Head branch was modified. Review and try the merge again.")
        tree = await merge_tree(bare, base_sha, head_sha)
        if tree is None:
            raise github_error(405, "Pull Request is not mergeable")
        login, _ = request_caller(state, request)
        title = body.get("commit_title") or f"Merge pull request #{number} from {pr['head']}"
        message = f"{title}\n\n{body.get('commit_message') or pr['title']}\n"
        code, sha = await git_out(
            bare, "-c", f"user.name={login}", "-c", f"user.email={login}@users.noreply.local",
            "commit-tree", tree, "-p", base_sha, "-p", head_sha, "-m", message,
        )  # fmt: skip
        if code != 0:
            raise github_error(500, "merge commit failed")
        await git_out(bare, "update-ref", f"refs/heads/{pr['base']}", sha, base_sha)
        now = github_time()
        pr.update(state="closed", merged=True, merged_at=now, closed_at=now, updated_at=now)
        pr.update(merge_commit_sha=sha, head_sha=head_sha, base_sha=base_sha, merged_by=login)
        state.save()
        send_pull_event(state, hooks, pr, "closed", login, base_url(request))
        return {"sha": sha, "merged": True, "message": "Pull Request successfully merged"}

    return api


async def note_push(
    state: EmulatorState, repos_root: Path, hooks: GitHubWebhooks, owner: str, repo: str,
    authorization: str, base: str, refs: list[tuple[str, str]],
) -> list[Json]:  # fmt: skip
    """After a push: a `push` event per moved branch, and `synchronize` for each open pull
    request whose head moved; returns those pull requests."""
    r = find_repo(state, owner, repo)
    bare = bare_path(repos_root, r)
    pusher, _ = caller(state, authorization)
    for ref, pushed in refs:
        hooks.send("push", {
            "ref": ref, "after": pushed, "created": False, "deleted": False, "forced": False,
            "commits": [], "head_commit": {"id": pushed},
            "pusher": {"name": pusher}, "repository": repository_json(r, base),
            "sender": user_json(pusher),
        })  # fmt: skip
    moved = []
    for pr in state.data["pulls"]:
        if pr["repo"] != f"{r['owner']}/{r['name']}" or pr["state"] != "open":
            continue
        sha = await branch_sha(bare, pr["head"])
        if sha and sha != pr["head_sha"]:
            before, pr["head_sha"] = pr["head_sha"], sha
            pr["base_sha"] = await branch_sha(bare, pr["base"]) or pr["base_sha"]
            moved.append(pr)
            send_pull_event(state, hooks, pr, "synchronize", pusher, base, before=before, after=sha)
    if moved:
        state.save()
    return moved
