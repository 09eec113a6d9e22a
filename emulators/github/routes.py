"""GitHub REST v3 under /api/v3 (repositories, pull requests, comments, labels) and PR pages."""

import asyncio
import html
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, Query, Request
from fastapi.responses import HTMLResponse

from emulators.github import shapes as shapes
from emulators.github.app_tokens import refused as installation_token_refused
from emulators.github.errors import BOT_LOGIN, github_error
from emulators.github.mergeable import merge_state
from emulators.github.store import find_thread
from emulators.state import EmulatorError, EmulatorState, now

# Who is calling (login, author association), and what to tell when a comment is added.
Caller = Callable[[Request], tuple[str, str]]
CommentAdded = Callable[[dict[str, Any], dict[str, Any], Request], None]
Labeled = Callable[[dict[str, Any], str, Request], None]
PullClosed = Callable[[dict[str, Any], Request], Awaitable[None]]

JsonObject = Annotated[dict[str, Any], Body()]


def validation_failed(*errors: dict[str, Any]) -> EmulatorError:
    """GitHub's 422 with its list of field errors."""
    return github_error(422, "Validation Failed", list(errors))


def field_error(resource: str, field: str, code: str = "invalid") -> dict[str, Any]:
    """One entry of a 422's errors: a field that is missing or invalid."""
    return {"resource": resource, "field": field, "code": code}


def custom_error(message: str) -> EmulatorError:
    """A 422 about the pull request as a whole, in GitHub's words."""
    return validation_failed({"resource": "PullRequest", "code": "custom", "message": message})


def require_token(request: Request) -> None:
    """Any non-empty token is accepted, an installation token only while it is live; no token
    is GitHub's 401."""
    _, _, token = request.headers.get("authorization", "").partition(" ")
    if not token.strip():
        raise github_error(401, "Requires authentication")
    state = getattr(request.app.state, "emulator", None)
    if state is not None and installation_token_refused(state, token.strip()):
        raise github_error(401, "Bad credentials")


def github_time() -> str:
    """A timestamp in GitHub's format."""
    return now().strftime("%Y-%m-%dT%H:%M:%SZ")


async def _git(bare: Path, *args: str) -> str | None:
    """The output of a git command on a bare repository, None when it fails."""
    if not bare.is_dir():
        return None
    proc = await asyncio.create_subprocess_exec(
        "git", "--git-dir", str(bare), *args,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL,
    )  # fmt: skip
    out, _ = await proc.communicate()
    return out.decode().strip() if proc.returncode == 0 else None


async def branch_sha(bare: Path, branch: str) -> str | None:
    """The commit a branch points at, None when the branch does not exist."""
    return await _git(bare, "rev-parse", "--verify", "--quiet", f"refs/heads/{branch}^{{commit}}")


def create_github_router(
    state: EmulatorState,
    repos_root: Path,
    caller: Caller | None = None,
    comment_added: CommentAdded | None = None,
    pull_closed: PullClosed | None = None,
    labeled: Labeled | None = None,
) -> APIRouter:
    """The GitHub routes over the shared state and the bare repositories."""
    router = APIRouter(tags=["github"])
    api = APIRouter(prefix="/api/v3/repos/{owner}/{repo}", dependencies=[Depends(require_token)])

    def find_repo(owner: str, repo: str) -> dict[str, Any]:
        for r in state.data["repositories"]:
            if (r["owner"].lower(), r["name"].lower()) == (owner.lower(), repo.lower()):
                return r
        raise github_error(404, "Not Found")

    def bare_path(r: dict[str, Any]) -> Path:
        return repos_root / r["owner"] / f"{r['name']}.git"

    def find_pull(owner: str, repo: str, number: int) -> dict[str, Any]:
        r = find_repo(owner, repo)
        full = f"{r['owner']}/{r['name']}"
        for pr in state.data["pulls"]:
            if pr["repo"] == full and pr["number"] == number:
                return pr
        raise github_error(404, "Not Found")

    def repo_json(r: dict[str, Any], base: str) -> dict[str, Any]:
        return shapes.repository(r, base)

    async def pull_json(pr: dict[str, Any], base: str) -> dict[str, Any]:
        r = find_repo(*pr["repo"].split("/"))
        if pr["state"] == "open":  # an open PR follows its branches, as on GitHub
            pr["head_sha"] = await branch_sha(bare_path(r), pr["head"]) or pr["head_sha"]
            pr["base_sha"] = await branch_sha(bare_path(r), pr["base"]) or pr["base_sha"]
        return await full_pull_request(r, bare_path(r), pr, base)

    def comment_json(pr: dict[str, Any], c: dict[str, Any], base: str) -> dict[str, Any]:
        return shapes.issue_comment(pr, c, base)

    @api.get("")
    def get_repository(owner: str, repo: str, request: Request) -> Any:
        return repo_json(find_repo(owner, repo), _base(request))

    @api.get("/pulls")
    async def list_pulls(
        owner: str,
        repo: str,
        request: Request,
        state_: str = Query("open", alias="state"),
        head: str | None = None,
        base: str | None = None,
        per_page: int = Query(30, ge=1, le=100),
        page: int = Query(1, ge=1),
    ) -> Any:
        r = find_repo(owner, repo)
        full = f"{r['owner']}/{r['name']}"
        # Like GitHub, a head without its `owner:` filters nothing (a common client bug).
        head_owner, _, head_branch = head.rpartition(":") if head else ("", "", "")
        pulls = [
            pr
            for pr in reversed(state.data["pulls"])
            if pr["repo"] == full
            and state_ in ("all", pr["state"])
            and (not head_owner or (pr["head"] == head_branch and head_owner == pr["head_owner"]))
            and (not base or pr["base"] == base)
        ]
        selected = pulls[(page - 1) * per_page : page * per_page]
        return [await pull_json(pr, _base(request)) for pr in selected]

    @api.post("/pulls", status_code=201)
    async def create_pull(owner: str, repo: str, request: Request, payload: JsonObject) -> Any:
        r = find_repo(owner, repo)
        missing = [f for f in ("title", "head", "base") if not str(payload.get(f) or "").strip()]
        if missing:
            raise validation_failed(
                *(field_error("PullRequest", f, "missing_field") for f in missing)
            )
        head_owner, _, head = str(payload["head"]).rpartition(":")
        head_owner = head_owner or r["owner"]
        base_branch = str(payload["base"])
        head_sha = await branch_sha(bare_path(r), head) if head_owner == r["owner"] else None
        base_sha = await branch_sha(bare_path(r), base_branch)
        invalid = [("base", base_sha), ("head", head_sha)]
        if errors := [f for f, sha in invalid if sha is None]:
            raise validation_failed(*(field_error("PullRequest", f) for f in errors))
        ahead = await _git(bare_path(r), "rev-list", "--count", f"{base_sha}..{head_sha}")
        full = f"{r['owner']}/{r['name']}"
        if any(
            p["repo"] == full and p["state"] == "open" and p["head"] == head
            for p in state.data["pulls"]
        ):
            raise custom_error(f"A pull request already exists for {head_owner}:{head}.")
        if ahead == "0":
            raise custom_error(f"No commits between {base_branch} and {head}")
        created = github_time()
        pr = {
            "id": state.next_id("github-id", 5000),
            "number": state.next_id(f"number:{full}"),
            "repo": full,
            "title": payload["title"],
            "body": payload.get("body"),
            "head": head,
            "head_owner": head_owner,
            "head_sha": head_sha,
            "base": base_branch,
            "base_sha": base_sha,
            "draft": bool(payload.get("draft", False)),
            "state": "open",
            "user": BOT_LOGIN,
            "created_at": created,
            "updated_at": created,
            "closed_at": None,
            "labels": [],
            "comments": [],
        }
        state.data["pulls"].append(pr)
        state.save()
        return await pull_json(pr, _base(request))

    @api.get("/pulls/{number}")
    async def get_pull(owner: str, repo: str, number: int, request: Request) -> Any:
        return await pull_json(find_pull(owner, repo, number), _base(request))

    @api.patch("/pulls/{number}")
    async def update_pull(
        owner: str, repo: str, number: int, request: Request, payload: JsonObject
    ) -> Any:
        pr = find_pull(owner, repo, number)
        if payload.get("state") not in (None, "open", "closed"):
            raise validation_failed(field_error("PullRequest", "state"))
        was = pr["state"]
        for name in ("title", "body", "state"):
            if name in payload:
                pr[name] = payload[name]
        pr["updated_at"] = github_time()
        closing = was == "open" and pr["state"] == "closed"
        if closing:
            pr["closed_at"] = pr["updated_at"]
        state.save()
        if closing and pull_closed is not None:
            await pull_closed(pr, request)
        return await pull_json(pr, _base(request))

    @api.post("/issues/{number}/comments", status_code=201)
    async def add_comment(
        owner: str, repo: str, number: int, request: Request, payload: JsonObject
    ) -> Any:
        pr = find_thread(state, owner, repo, number)
        if not str(payload.get("body") or "").strip():
            raise validation_failed(field_error("IssueComment", "body", "missing_field"))
        login, association = caller(request) if caller else (BOT_LOGIN, "NONE")
        comment = {"id": state.next_id("github-id", 5000), "body": payload["body"]}
        comment |= {"user": login, "association": association, "created_at": github_time()}
        pr["comments"].append(comment)
        state.save()
        if comment_added is not None:
            comment_added(pr, comment, request)
        return comment_json(pr, comment, _base(request))

    @api.post("/issues/{number}/labels")
    async def add_labels(
        owner: str, repo: str, number: int, request: Request, payload: Annotated[Any, Body()]
    ) -> Any:
        pr = find_thread(state, owner, repo, number)
        names = payload.get("labels") if isinstance(payload, dict) else payload
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise validation_failed(field_error("Label", "labels"))
        added = list(dict.fromkeys(n for n in names if n not in pr["labels"]))
        pr["labels"].extend(added)
        state.save()
        if labeled is not None:
            for name in added:
                labeled(pr, name, request)
        return [shapes.label(name, _base(request), pr["repo"]) for name in pr["labels"]]

    @router.get("/{owner}/{repo}/pull/{number}", response_class=HTMLResponse)
    def pull_page(owner: str, repo: str, number: int) -> str:
        pr = find_pull(owner, repo, number)
        e = html.escape
        state_text = "draft" if pr["draft"] and pr["state"] == "open" else pr["state"]
        comments = "".join(f"<li><pre>{e(c['body'])}</pre></li>" for c in pr["comments"])
        return (
            f"<html><head><title>{e(pr['title'])} #{pr['number']}</title></head><body>"
            f"<h1>{e(pr['title'])} <span>#{pr['number']}</span></h1>"
            f"<p class='state'>{e(state_text)}</p>"
            f"<p>{e(pr['user'])} wants to merge <code>{e(pr['head'])}</code> into "
            f"<code>{e(pr['base'])}</code> in {e(pr['repo'])}</p>"
            f"<pre class='body'>{e(pr['body'] or '')}</pre>"
            f"<h2>Comments</h2><ul>{comments}</ul></body></html>"
        )

    router.include_router(api)
    return router


async def full_pull_request(r: dict[str, Any], bare: Path, pr: dict[str, Any], base: str) -> Any:
    """A pull request in REST's full shape: its counts and merge state from the repository."""
    stats = await _pull_stats(bare, pr["base_sha"], pr["head_sha"])
    shaped = shapes.pull_request(pr, shapes.repository(r, base), base, stats)
    if pr.get("merged_by"):
        shaped["merged_by"] = shapes.person(pr["merged_by"], base)
    return {**shaped, **await merge_state(pr, bare)}


async def _pull_stats(bare: Path, base_sha: str, head_sha: str) -> dict[str, int]:
    """Commits, added and deleted lines and changed files from base to head."""
    commits = await _git(bare, "rev-list", "--count", f"{base_sha}..{head_sha}")
    numstat = await _git(bare, "diff", "--numstat", f"{base_sha}...{head_sha}") or ""
    rows = [line.split("\t") for line in numstat.splitlines() if line.strip()]
    count = [(int(a) if a.isdigit() else 0, int(d) if d.isdigit() else 0) for a, d, *_ in rows]
    return {
        "commits": int(commits or 0),
        "additions": sum(a for a, _ in count),
        "deletions": sum(d for _, d in count),
        "changed_files": len(rows),
    }


def _base(request: Request) -> str:
    return str(request.base_url).rstrip("/")
