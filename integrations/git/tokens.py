"""Git credentials by code host: a GitLab project's token, else GitHub's (a token or an App's)."""

from collections.abc import Callable

from integrations.github.auth import TokenSource


class TokensByHost:
    """A token source that answers for GitLab projects with the GitLab token."""

    def __init__(
        self, github: TokenSource, gitlab_token: str, on_gitlab: Callable[[str], bool]
    ) -> None:
        self._github = github
        self._gitlab_token = gitlab_token
        self._on_gitlab = on_gitlab

    async def token(self, repository: str | None) -> str:
        if repository and self._on_gitlab(repository):
            return self._gitlab_token
        return await self._github.token(repository)

    def expire(self, repository: str | None, token: str) -> None:
        if not (repository and self._on_gitlab(repository)):
            self._github.expire(repository, token)
