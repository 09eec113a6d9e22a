"""The installation tokens the emulated GitHub App issues: made, looked up, expired.

They start with `ghs_` like GitHub's; a `ghs_` token the emulator did not issue, or one past
its expiry, is refused with GitHub's 401 `Bad credentials` by the API and by git hosting.
"""

import secrets
import time
from typing import Any

from emulators.state import EmulatorState

PREFIX = "ghs_"
DEFAULT_LIFETIME_S = 3600  # GitHub's: an hour


def issued(state: EmulatorState) -> dict[str, Any]:
    """Every token issued: token -> {installation_id, expires_at (epoch seconds)}."""
    found: dict[str, Any] = state.data.setdefault("github_app_tokens", {})
    return found


def issue_token(state: EmulatorState, installation_id: int, lifetime_s: float) -> tuple[str, float]:
    """A new token of the installation and its expiry (epoch seconds)."""
    token = PREFIX + secrets.token_urlsafe(27)
    expires_at = time.time() + lifetime_s
    issued(state)[token] = {"installation_id": installation_id, "expires_at": expires_at}
    state.save()
    return token, expires_at


def refused(state: EmulatorState, token: str) -> bool:
    """An installation token that is unknown or expired (other tokens are not judged here)."""
    if not token.startswith(PREFIX):
        return False
    found = issued(state).get(token)
    return found is None or found["expires_at"] <= time.time()


def expire_all(state: EmulatorState, installation_id: int | None = None) -> int:
    """Expire every issued token now (of one installation, when given); how many were live."""
    moment = time.time()
    live = [
        t
        for t in issued(state).values()
        if t["expires_at"] > moment and installation_id in (None, t["installation_id"])
    ]
    for token in live:
        token["expires_at"] = moment
    state.save()
    return len(live)
