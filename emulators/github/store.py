"""What the emulator's GitHub modules share: lookups, who is calling, and event payloads."""

from pathlib import Path
from typing import Any

from fastapi import Request

from emulators.github.errors import BOT_LOGIN, github_error
from emulators.state import EmulatorState

Json = dict[str, Any]


def collection(state: EmulatorState, name: str) -> list[Json]:
    """A list in the state, created on first use (older state files lack it)."""
    found: list[Json] = state.data.setdefault(name, [])
    return found


def find_repo(state: EmulatorState, owner: str, repo: str) -> Json:
    """A repository by owner and name (case-insensitive), or GitHub's 404."""
    for r in state.data["repositories"]:
        if (r["owner"].lower(), r["name"].lower()) == (owner.lower(), repo.lower()):
            return r
    raise github_error(404, "Not Found")


def find_pull(state: EmulatorState, owner: str, repo: str, number: int) -> Json:
    """A pull request by repository and number, or GitHub's 404."""
    r = find_repo(state, owner, repo)
    full = f"{r['owner']}/{r['name']}"
    for pr in state.data["pulls"]:
        if pr["repo"] == full and pr["number"] == number:
            return pr
    raise github_error(404, "Not Found")


def find_thread(state: EmulatorState, owner: str, repo: str, number: int) -> Json:
    """A pull request or an issue by number (they share numbers, as on GitHub), or a 404."""
    r = find_repo(state, owner, repo)
    full = f"{r['owner']}/{r['name']}"
    for thread in [*state.data["pulls"], *collection(state, "github_issues")]:
        if thread["repo"] == full and thread["number"] == number:
            return thread
    raise github_error(404, "Not Found")


def is_pull(thread: Json) -> bool:
    """Whether a thread is a pull request (issues have no head branch)."""
    return "head" in thread


def bare_path(repos_root: Path, r: Json) -> Path:
    """The bare git repository of a repository."""
    return repos_root / r["owner"] / f"{r['name']}.git"


def token_of(authorization: str) -> str:
    """The token of an Authorization header (Bearer, token, or git's Basic x-access-token)."""
    scheme, _, value = authorization.partition(" ")
    if scheme.lower() == "basic":
        import base64

        try:
            value = base64.b64decode(value).decode().partition(":")[2]
        except ValueError:
            return ""
    return value.strip()


def caller(state: EmulatorState, authorization: str) -> tuple[str, str]:
    """The login and author association of whoever holds the token (the bot by default)."""
    token = token_of(authorization)
    for person in state.data.get("github_users", []):
        if person["token"] == token:
            return person["login"], person.get("association", "NONE")
    return BOT_LOGIN, "NONE"


def request_caller(state: EmulatorState, request: Request) -> tuple[str, str]:
    """The caller of an API request."""
    return caller(state, request.headers.get("authorization", ""))


def user_json(login: str) -> Json:
    """A user object as GitHub nests it."""
    kind = "Bot" if login == BOT_LOGIN else "User"
    return {"login": login, "id": abs(hash(login)) % 10**8, "type": kind, "site_admin": False}


def base_url(request: Request) -> str:
    """The emulator's own address as the caller reached it."""
    return str(request.base_url).rstrip("/")
