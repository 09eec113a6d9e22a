"""Merging and closing pull requests for real in the bare repository, and noticing pushes to
their branches (`synchronize`), each sent as GitHub's webhook."""

from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, Request

from emulators.github import hook_shapes as hook_shapes
from emulators.github.commits import commit_facts, pushed_commits
from emulators.github.issues import close_fixed_issues
from emulators.github.mergeable import git_out, merge_tree
from emulators.github.routes import (
    branch_sha,
    full_pull_request,
    github_error,
    github_time,
    require_token,
)
from emulators.github.store import (
    Json,
    bare_path,
    base_url,
    caller,
    find_pull,
    find_repo,
    request_caller,
)
from emulators.github.webhooks import GitHubWebhooks
from emulators.state import EmulatorState

JsonObject = Annotated[dict[str, Any], Body()]


async def send_pull_event(
    state: EmulatorState, repos_root: Path, hooks: GitHubWebhooks, pr: Json, action: str,
    sender: str, base: str, **fields: Any,
) -> None:  # fmt: skip
    """A `pull_request` webhook."""
    r = find_repo(state, *pr["repo"].split("/"))
    full = await full_pull_request(r, bare_path(repos_root, r), pr, base)
    payload = {"action": action, "number": pr["number"], **fields}
    payload |= {
        "pull_request": hook_shapes.pull_request(full, r, base),
        "repository": hook_shapes.repository(r, base), "sender": hook_shapes.person(sender, base),
    }  # fmt: skip
    hooks.send("pull_request", payload)


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
        await send_pull_event(state, repos_root, hooks, pr, "closed", login, base_url(request))
        # As on GitHub, closing keywords act only on a merge into the default branch.
        if pr["base"] == find_repo(state, owner, repo).get("default_branch", "main"):
            close_fixed_issues(state, hooks, pr, login, base_url(request))
        return {"sha": sha, "merged": True, "message": "Pull Request successfully merged"}

    return api


async def note_push(
    state: EmulatorState, repos_root: Path, hooks: GitHubWebhooks, owner: str, repo: str,
    authorization: str, base: str, refs: list[tuple[str, str, str]],
) -> list[Json]:  # fmt: skip
    """After a push: a `push` event per moved branch, and `synchronize` for each open pull
    request whose head moved; returns those pull requests."""
    r = find_repo(state, owner, repo)
    bare = bare_path(repos_root, r)
    pusher, _ = caller(state, authorization)
    for ref, before, pushed in refs:
        await send_push(r, bare, base, pusher, ref, before, pushed, hooks)
    moved = []
    for pr in state.data["pulls"]:
        if pr["repo"] != f"{r['owner']}/{r['name']}" or pr["state"] != "open":
            continue
        sha = await branch_sha(bare, pr["head"])
        if sha and sha != pr["head_sha"]:
            before, pr["head_sha"] = pr["head_sha"], sha
            pr["base_sha"] = await branch_sha(bare, pr["base"]) or pr["base_sha"]
            moved.append(pr)
            await send_pull_event(
                state, repos_root, hooks, pr, "synchronize", pusher, base, before=before, after=sha
            )
    if moved:
        state.save()
    return moved


async def send_push(
    r: Json, bare: Path, base: str, pusher: str, ref: str, before: str, after: str,
    hooks: GitHubWebhooks,
) -> None:  # fmt: skip
    """The `push` webhook of one moved ref, with the commits it brought."""
    full = f"{r['owner']}/{r['name']}"
    commits = [
        hook_shapes.push_commit(facts, full, base)
        for facts in await pushed_commits(bare, before, after)
    ]
    head = await commit_facts(bare, after)
    hooks.send("push", {
        "ref": ref, "before": before, "after": after, "created": set(before) == {"0"},
        "deleted": False, "forced": False, "base_ref": None,
        "compare": f"{base}/{full}/compare/{before[:12]}...{after[:12]}",
        "commits": commits,
        "head_commit": hook_shapes.push_commit(head, full, base) if head else None,
        "pusher": {"name": pusher, "email": f"{pusher}@users.noreply.local"},
        "repository": hook_shapes.repository(r, base), "sender": hook_shapes.person(pusher, base),
    })  # fmt: skip
