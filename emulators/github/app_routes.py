"""The emulated GitHub App: one app (its id and public key from the seed or an admin route),
installed on every repository unless told which, that trades its JWT for installation tokens.

Admin: `PUT /_emulator/github/app` sets the app, `POST /_emulator/github/app/tokens/expire`
expires every token it issued (a client then has to renew), and
`DELETE /_emulator/github/app/installations/{owner}` removes it from an account.
"""

import time
from typing import Any

import jwt
from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from emulators.github import shapes as shapes
from emulators.github.app_tokens import DEFAULT_LIFETIME_S, expire_all, issue_token
from emulators.github.routes import github_error, github_time
from emulators.github.store import base_url, find_repo
from emulators.state import EmulatorState

MAX_JWT_AHEAD_S = 600  # GitHub refuses a JWT whose `exp` is further ahead
PERMISSIONS = {
    "metadata": "read", "contents": "write", "pull_requests": "write", "issues": "write",
    "checks": "read", "statuses": "read", "actions": "read",
}  # fmt: skip
EVENTS = [
    "check_run", "check_suite", "issue_comment", "pull_request", "pull_request_review",
    "pull_request_review_comment", "push", "status", "workflow_run",
]  # fmt: skip
Json = dict[str, Any]


class AppSettings(BaseModel):
    """The app the emulator knows."""

    id: str = Field(pattern=r"^\w+$", description="the app id JWTs name as `iss`")
    public_key: str = Field(description="PEM of the app's RSA public key")
    slug: str = "ticketsmith"
    token_seconds: float = Field(default=DEFAULT_LIFETIME_S, gt=0, le=DEFAULT_LIFETIME_S)
    repositories: list[str] | None = Field(
        default=None, description='"owner/name" it is installed on; None: every repository'
    )


def _app(state: EmulatorState) -> Json:
    app: Json | None = state.data.get("github_app")
    if not app:
        raise github_error(401, "A JSON web token could not be decoded")
    return app


def authenticated_app(state: EmulatorState, request: Request) -> Json:
    """The app whose JWT the request carries, checked as GitHub checks it; 401 otherwise."""
    app = _app(state)
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise github_error(401, "A JSON web token could not be decoded")
    try:
        claims = jwt.decode(
            token.strip(),
            app["public_key"],
            algorithms=["RS256"],
            options={"require": ["iat", "exp", "iss"], "verify_iss": False},
        )
    except jwt.ExpiredSignatureError as err:
        message = (
            "'Expiration time' claim ('exp') must be a numeric value representing the future "
            "time at which the assertion expires"
        )
        raise github_error(401, message) from err
    except jwt.PyJWTError as err:
        raise github_error(401, "A JSON web token could not be decoded") from err
    if claims["exp"] - time.time() > MAX_JWT_AHEAD_S:
        raise github_error(401, "'Expiration time' claim ('exp') is too far in the future")
    if str(claims["iss"]) != str(app["id"]):
        raise github_error(401, "Integration not found")
    return app


def _installation_id(state: EmulatorState, app: Json, owner: str) -> int:
    """The app's installation on an account: one per owner, made on first use."""
    installations: dict[str, int] = app.setdefault("installations", {})
    if owner not in installations:
        installations[owner] = state.next_id("github-installation", 40001)
        state.save()
    return installations[owner]


def _installation_json(app: Json, owner: str, number: int, base: str) -> Json:
    api = f"{base}/api/v3"
    selection = "all" if app.get("repositories") is None else "selected"
    account = shapes.user(owner, base, "Organization")
    return {
        "id": number, "account": account,
        "access_tokens_url": f"{api}/app/installations/{number}/access_tokens",
        "repositories_url": f"{api}/installation/repositories",
        "html_url": f"{base}/organizations/{owner}/settings/installations/{number}",
        "app_id": int(app["id"]) if str(app["id"]).isdigit() else app["id"],
        "app_slug": app.get("slug", "ticketsmith"), "target_id": account["id"],
        "target_type": "Organization", "permissions": PERMISSIONS, "events": EVENTS,
        "created_at": "2024-01-01T00:00:00Z", "updated_at": "2024-01-01T00:00:00Z",
        "single_file_name": None, "has_multiple_single_files": False,
        "single_file_paths": [], "repository_selection": selection,
        "suspended_by": None, "suspended_at": None,
    }  # fmt: skip


def create_app_router(state: EmulatorState) -> APIRouter:
    """The app's REST endpoints (JWT) and its admin routes."""
    router = APIRouter(tags=["github"])

    @router.get("/api/v3/repos/{owner}/{repo}/installation")
    def repository_installation(owner: str, repo: str, request: Request) -> Json:
        app = authenticated_app(state, request)
        r = find_repo(state, owner, repo)
        full = f"{r['owner']}/{r['name']}"
        chosen = app.get("repositories")
        if chosen is not None and full.casefold() not in {c.casefold() for c in chosen}:
            raise github_error(404, "Not Found")
        number = _installation_id(state, app, r["owner"])
        return _installation_json(app, r["owner"], number, base_url(request))

    @router.post("/api/v3/app/installations/{installation_id}/access_tokens", status_code=201)
    def create_access_token(installation_id: int, request: Request) -> Json:
        app = authenticated_app(state, request)
        if installation_id not in (app.get("installations") or {}).values():
            raise github_error(404, "Not Found")
        token, expires_at = issue_token(state, installation_id, app.get("token_seconds", 3600))
        stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(expires_at))
        selection = "all" if app.get("repositories") is None else "selected"
        body = {"token": token, "expires_at": stamp, "permissions": PERMISSIONS}
        return body | {"repository_selection": selection}

    @router.put("/_emulator/github/app")
    def set_app(settings: AppSettings) -> Json:
        previous = state.data.get("github_app") or {}
        state.data["github_app"] = settings.model_dump() | {
            "installations": previous.get("installations", {}),
            "updated_at": github_time(),
        }
        state.save()
        return {k: v for k, v in state.data["github_app"].items() if k != "public_key"}

    @router.post("/_emulator/github/app/tokens/expire")
    def expire_tokens() -> Json:
        return {"expired": expire_all(state)}

    @router.delete("/_emulator/github/app/installations/{owner}")
    def uninstall(owner: str) -> Json:
        """Remove the app from an account: its tokens stop working; the next lookup installs
        it again, with a new id."""
        app = state.data.get("github_app") or {}
        number = (app.get("installations") or {}).pop(owner, None)
        if number is None:
            raise github_error(404, f"the app is not installed on {owner}")
        state.save()
        return {"installation_id": number, "expired": expire_all(state, number)}

    return router
