"""What the emulator's GitLab modules share: errors, lookups, who is calling, and pages."""

import math
from pathlib import Path
from typing import Any

from fastapi import Request
from fastapi.responses import JSONResponse

from emulators.github.store import token_of
from emulators.state import EmulatorError, EmulatorState, now

Json = dict[str, Any]
BOT = {"id": 3000, "username": "ticketsmith-bot", "name": "ticketsmith", "token": ""}
DRAFT_PREFIXES = ("draft:", "[draft]", "(draft)")
DEFAULT_PER_PAGE, MAX_PER_PAGE = 20, 100


def gitlab_error(status_code: int, message: Any) -> EmulatorError:
    """An error with GitLab's body shape (`message`, or `error` for 401)."""
    key = "error" if status_code == 401 else "message"
    return EmulatorError(status_code, {key: message})


def gitlab_time() -> str:
    """A timestamp in GitLab's format."""
    return now().strftime("%Y-%m-%dT%H:%M:%S.%fZ")[:-4] + "Z"


def is_draft(title: str) -> bool:
    """GitLab's rule: a title starting with a draft prefix makes a draft merge request."""
    return title.strip().lower().startswith(DRAFT_PREFIXES)


def projects(state: EmulatorState) -> list[Json]:
    """The GitLab projects of the state (older state files have none)."""
    found: list[Json] = state.data.setdefault("gitlab_projects", [])
    return found


def find_project(state: EmulatorState, project_id: str) -> Json:
    """A project by id or `namespace/name`, or GitLab's 404."""
    for p in projects(state):
        if project_id in (str(p["id"]), p["path_with_namespace"]):
            return p
    raise gitlab_error(404, "404 Project Not Found")


def owned_list(owner: Json, name: str) -> list[Json]:
    """A list kept on a project or merge request, created on first use."""
    found: list[Json] = owner.setdefault(name, [])
    return found


def find_mr(project: Json, iid: int) -> Json:
    """A merge request of a project by iid, or GitLab's 404."""
    for mr in owned_list(project, "merge_requests"):
        if mr["iid"] == iid:
            return mr
    raise gitlab_error(404, "404 Not found")


def bare_of(repos_root: Path, project: Json) -> Path:
    """The bare git repository of a project."""
    return repos_root / f"{project['path_with_namespace']}.git"


def users(state: EmulatorState) -> list[Json]:
    """The seeded GitLab users, the bot first (older state files have none)."""
    found: list[Json] = state.data.get("gitlab_users") or [BOT]
    return found


def user_by_id(state: EmulatorState, user_id: int) -> Json | None:
    """A seeded user by id."""
    return next((u for u in users(state) if u["id"] == user_id), None)


def user_by_name(state: EmulatorState, username: str) -> Json:
    """A seeded user by username (the bot for one the seed lacks)."""
    return next((u for u in users(state) if u["username"] == username), bot(state))


def bot(state: EmulatorState) -> Json:
    """The user ticketsmith acts as."""
    return next((u for u in users(state) if u["username"] == BOT["username"]), BOT)


def holder(state: EmulatorState, token: str) -> Json:
    """Whoever holds the token; an unknown one is the bot's, as the emulator takes any token."""
    token = token.strip()
    return next((u for u in users(state) if token and u.get("token") == token), bot(state))


def request_token(request: Request) -> str:
    """The token of a request: `PRIVATE-TOKEN`, or a bearer or git basic `Authorization`."""
    return request.headers.get("private-token") or token_of(
        request.headers.get("authorization", "")
    )


def caller(state: EmulatorState, request: Request) -> Json:
    """The user calling the API."""
    return holder(state, request_token(request))


def base_of(request: Request) -> str:
    """The emulator's own address as the caller reached it."""
    return str(request.base_url).rstrip("/")


def paged(items: list[Any], page: int = 1, per_page: int = DEFAULT_PER_PAGE) -> JSONResponse:
    """One page of `items` with GitLab's pagination headers (`X-Next-Page` empty at the end)."""
    per_page = min(max(per_page, 1), MAX_PER_PAGE)
    page = max(page, 1)
    pages = max(math.ceil(len(items) / per_page), 1)
    headers = {
        "X-Page": str(page), "X-Per-Page": str(per_page), "X-Total": str(len(items)),
        "X-Total-Pages": str(pages), "X-Next-Page": str(page + 1) if page < pages else "",
        "X-Prev-Page": str(page - 1) if page > 1 else "",
    }  # fmt: skip
    return JSONResponse(items[(page - 1) * per_page : page * per_page], headers=headers)
