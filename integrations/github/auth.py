"""Where GitHub calls get their token: a personal token, or a GitHub App's installation tokens.

API requests carry it through `GitHubAuth`; git carries it in an environment header
(`integrations/git/client.py`). A refused token is given back (`expire`) and asked for once more.
"""

import re
from collections.abc import AsyncGenerator
from typing import TYPE_CHECKING, Protocol

import httpx

if TYPE_CHECKING:
    from config.services import ServiceSettings

_REPOSITORY_PATH = re.compile(r"^/repos/(?P<owner>[^/]+)/(?P<name>[^/]+)")


class TokenSource(Protocol):
    """Gives the token for calls on a repository ("owner/name"; None: no repository)."""

    async def token(self, repository: str | None) -> str:
        """A token valid for calls on `repository` now."""
        ...

    def expire(self, repository: str | None, token: str) -> None:
        """The server refused `token`: the next `token()` must not give it again."""
        ...


class StaticToken:
    """A personal access token: the same for every repository, never renewed."""

    def __init__(self, token: str) -> None:
        self._token = token

    async def token(self, repository: str | None) -> str:
        """The configured token."""
        return self._token

    def expire(self, repository: str | None, token: str) -> None:
        """A personal token cannot be renewed: the refusal stands."""


def github_token_source(
    settings: "ServiceSettings", transport: httpx.AsyncBaseTransport | None = None
) -> TokenSource:
    """The personal token, or the GitHub App's installation tokens (the key is read now)."""
    from integrations.github.app import (  # its keys and JWTs only for an app
        KEY_SETTING,
        InstallationTokens,
        load_private_key,
        read_private_key,
    )

    if settings.github_app_id is None:
        return StaticToken(settings.github_token.get_secret_value())
    if settings.github_app_private_key is not None:
        pem = settings.github_app_private_key.get_secret_value()
        key = load_private_key(pem, KEY_SETTING)
    else:
        assert settings.github_app_private_key_path is not None  # the settings' validator says so
        key = read_private_key(settings.github_app_private_key_path)
    return InstallationTokens(settings.github_app_id, key, settings.github_api_url, transport)


def repository_of_remote(remote_url: str) -> str:
    """The repository ("owner/name") of a git remote URL (`https://host/owner/name.git`)."""
    parts = remote_url.rstrip("/").removesuffix(".git").split("/")
    return "/".join(parts[-2:])


class GitHubAuth(httpx.Auth):
    """Bearer token on requests under the API's base URL; a 401 renews the token once.

    Other URLs (a job log's signed download address) get no token.
    """

    def __init__(self, source: TokenSource, api_url: str) -> None:
        base = httpx.URL(api_url)
        self._origin = (base.scheme, base.host, base.port)
        self._prefix = base.path.rstrip("/")
        self.source = source

    def _api_path(self, url: httpx.URL) -> str | None:
        if (url.scheme, url.host, url.port) != self._origin:
            return None
        if not url.path.startswith(f"{self._prefix}/"):
            return None
        return url.path[len(self._prefix) :]

    async def async_auth_flow(
        self, request: httpx.Request
    ) -> AsyncGenerator[httpx.Request, httpx.Response]:
        path = self._api_path(request.url)
        if path is None:
            yield request
            return
        found = _REPOSITORY_PATH.match(path)
        repository = f"{found['owner']}/{found['name']}" if found else None
        token = await self.source.token(repository)
        request.headers["Authorization"] = f"Bearer {token}"
        response = yield request
        if response.status_code != 401:
            return
        self.source.expire(repository, token)
        renewed = await self.source.token(repository)
        if renewed != token:  # httpx closes the refused response
            request.headers["Authorization"] = f"Bearer {renewed}"
            yield request
