"""A GitHub App's credentials: the app's JWT, and installation tokens cached and renewed.

GitHub's rules: the JWT is RS256-signed with the app's private key, `iat` 60 s in the past,
`exp` at most 10 minutes ahead, `iss` the app's id. A repository's installation comes from
`GET /repos/{owner}/{repo}/installation`; its token from
`POST /app/installations/{id}/access_tokens`, valid for an hour.
"""

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.rsa import RSAPrivateKey
from temporalio.exceptions import ApplicationError

from integrations.http import build_http_client, error_message, raise_for_status

SERVICE = "GitHub"
APP_ID_SETTING = "TICKETSMITH_GITHUB_APP_ID"
KEY_PATH_SETTING = "TICKETSMITH_GITHUB_APP_PRIVATE_KEY_PATH"
KEY_SETTING = "TICKETSMITH_GITHUB_APP_PRIVATE_KEY"
JWT_BACKDATE_S = 60  # GitHub's advice against clock drift
JWT_LIFETIME_S = 600  # from `iat`: `exp` stays under GitHub's 10 minutes ahead
RENEW_MARGIN = timedelta(minutes=5)


class GitHubAppConfigError(ValueError):
    """The app's settings cannot work; the message names the setting to fix."""


def load_private_key(pem: str | bytes, setting: str) -> RSAPrivateKey:
    """The app's RSA private key from PEM text; GitHubAppConfigError naming `setting` if not."""
    data = pem.encode() if isinstance(pem, str) else pem
    try:
        key = serialization.load_pem_private_key(data, password=None)
    except (ValueError, TypeError) as err:
        raise GitHubAppConfigError(
            f"{setting} is not a PEM private key ({err}): use the .pem file GitHub generated "
            "under the app's settings, 'Private keys'"
        ) from err
    if not isinstance(key, RSAPrivateKey):
        raise GitHubAppConfigError(f"{setting} is not an RSA key: GitHub Apps sign with RSA")
    return key


def read_private_key(path: Path) -> RSAPrivateKey:
    """The app's private key from a PEM file named by the path setting."""
    try:
        pem = path.read_bytes()
    except OSError as err:
        raise GitHubAppConfigError(f"{KEY_PATH_SETTING}={path} cannot be read: {err}") from err
    return load_private_key(pem, f"{KEY_PATH_SETTING} ({path})")


def app_jwt(app_id: str, key: RSAPrivateKey, now: float) -> str:
    """The JWT the app authenticates with, issued at `now` (seconds since the epoch)."""
    issued = int(now) - JWT_BACKDATE_S
    claims = {"iat": issued, "exp": issued + JWT_LIFETIME_S, "iss": app_id}  # or a client id
    return jwt.encode(claims, key, algorithm="RS256")


@dataclass(frozen=True)
class InstallationToken:
    """An installation access token and when GitHub stops taking it."""

    token: str
    expires_at: float  # seconds since the epoch
    permissions: dict[str, str]
    repository_selection: str


class InstallationTokens:
    """Installation tokens per installation, renewed `RENEW_MARGIN` before they expire and
    when GitHub refuses one (a `TokenSource`, see `integrations/github/auth.py`)."""

    def __init__(
        self,
        app_id: str,
        private_key: RSAPrivateKey,
        api_url: str,
        transport: httpx.AsyncBaseTransport | None = None,
        clock: Callable[[], float] = time.time,
        margin: timedelta = RENEW_MARGIN,
    ) -> None:
        self.app_id = app_id
        self._key = private_key
        self._api_url = api_url
        self._transport = transport
        self._clock = clock
        self._margin = margin.total_seconds()
        self._installations: dict[str, int] = {}
        self._tokens: dict[int, InstallationToken] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self.exchanges = 0  # tokens obtained, for tests and figures

    async def token(self, repository: str | None) -> str:
        """A token of the installation that covers `repository`, fresh enough to use."""
        if repository is None:
            raise ApplicationError(
                f"GitHub App {self.app_id}: this call names no repository, and an app's tokens "
                "belong to the installation on a repository (use TICKETSMITH_GITHUB_TOKEN for "
                "calls as a user)",
                type="GitHubAppNoRepository",
                non_retryable=True,
            )
        installation = await self.installation_id(repository)
        try:
            return await self._installation_token(installation)
        except ApplicationError as err:
            if err.type != f"{SERVICE}NotFound":
                raise
        # The installation is gone (the app was removed, perhaps installed again): look again.
        self._forget(installation)
        return await self._installation_token(await self.installation_id(repository))

    async def _installation_token(self, installation: int) -> str:
        async with self._locks.setdefault(installation, asyncio.Lock()):
            cached = self._tokens.get(installation)
            if cached is None or cached.expires_at - self._margin <= self._clock():
                cached = await self._exchange(installation)
                self._tokens[installation] = cached
            return cached.token

    def _forget(self, installation: int) -> None:
        self._tokens.pop(installation, None)
        for repository in [r for r, i in self._installations.items() if i == installation]:
            del self._installations[repository]

    def expire(self, repository: str | None, token: str) -> None:
        """Forget a token GitHub refused, so the next call renews it."""
        installation = self._installations.get((repository or "").casefold())
        if installation is not None and self.cached_token(installation) == token:
            del self._tokens[installation]

    def cached_token(self, installation: int) -> str | None:
        """The token held for an installation, if any."""
        held = self._tokens.get(installation)
        return held.token if held else None

    def cached(self, repository: str) -> InstallationToken | None:
        """The token held for a repository's installation, if any."""
        installation = self._installations.get(repository.casefold())
        return self._tokens.get(installation) if installation is not None else None

    async def installation_id(self, repository: str) -> int:
        """The id of the app's installation on `repository` (looked up once)."""
        known = self._installations.get(repository.casefold())
        if known is None:
            raw = await self._as_app("GET", f"/repos/{repository}/installation", repository)
            known = self._installations[repository.casefold()] = int(raw["id"])
        return known

    async def _exchange(self, installation: int) -> InstallationToken:
        path = f"/app/installations/{installation}/access_tokens"
        raw = await self._as_app("POST", path, None)
        self.exchanges += 1
        expires = datetime.fromisoformat(str(raw["expires_at"]).replace("Z", "+00:00"))
        return InstallationToken(
            token=str(raw["token"]),
            expires_at=expires.timestamp(),
            permissions=dict(raw.get("permissions") or {}),
            repository_selection=str(raw.get("repository_selection") or ""),
        )

    async def _as_app(self, method: str, path: str, repository: str | None) -> Any:
        """A call authenticated as the app (its JWT), errors saying which setting to check."""
        headers = {
            "Accept": "application/vnd.github+json",
            "X-GitHub-Api-Version": "2022-11-28",
            "Authorization": f"Bearer {app_jwt(self.app_id, self._key, self._clock())}",
        }
        async with build_http_client(self._api_url, headers, transport=self._transport) as http:
            response = await http.request(method, path)
        if response.status_code == 401:
            raise ApplicationError(
                f"GitHub refused the JWT of app {self.app_id} ({error_message(response)}): "
                f"check that {APP_ID_SETTING} is the app's id and that the private key "
                f"({KEY_PATH_SETTING} or {KEY_SETTING}) is one of the app's keys",
                type="GitHubAppAuthFailed",
                non_retryable=True,
            )
        if response.status_code == 404 and repository is not None:
            raise ApplicationError(
                f"GitHub App {self.app_id} is not installed on {repository} (or cannot see "
                "it): install the app on the repository, or check the project's repository",
                type="GitHubAppNotInstalled",
                non_retryable=True,
            )
        raise_for_status(SERVICE, response)
        return response.json()
