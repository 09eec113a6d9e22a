"""The GitLab emulator's parts wired together: its hooks, CI, pushes and routers."""

from pathlib import Path

from fastapi import APIRouter, Request

from emulators.github.ci import EmulatedCI
from emulators.github.ci_faults import create_ci_faults_router
from emulators.gitlab.ci import GitLabCI
from emulators.gitlab.events import GitLabEvents
from emulators.gitlab.merge import create_merge_router
from emulators.gitlab.notes import create_notes_router
from emulators.gitlab.pipelines import create_pipelines_router
from emulators.gitlab.pushes import GitLabPushes
from emulators.gitlab.routes import create_gitlab_router
from emulators.gitlab.store import base_of, holder, projects, request_token
from emulators.gitlab.webhooks import GitLabWebhooks, create_gitlab_hooks_router
from emulators.state import EmulatorState

FAULTS_PREFIX = "/_emulator/gitlab/ci/faults"


class GitLabEmulator:
    """GitLab's REST v4, its webhooks and its CI over one state and its git repositories."""

    def __init__(
        self, state: EmulatorState, repos_root: Path, hooks: GitLabWebhooks, runner: EmulatedCI,
        ci: bool,
    ) -> None:  # fmt: skip
        self._state, self._repos_root, self.hooks = state, repos_root, hooks
        self.events = GitLabEvents(state, repos_root, hooks)
        self.ci = GitLabCI(state, repos_root, self.events, runner)
        self.pushes = GitLabPushes(state, repos_root, self.events, self.ci if ci else None)

    def routers(self) -> list[APIRouter]:
        """Its routers in the order they must be added: the project route takes any path
        under `/projects/:id`, so it comes last."""
        state, root = self._state, self._repos_root
        return [
            create_gitlab_hooks_router(self.hooks),
            create_ci_faults_router(self.ci.faults, FAULTS_PREFIX),
            create_notes_router(state, self.events),
            create_pipelines_router(state, root, self.ci),
            create_merge_router(state, root, self.events, self.pushes),
            create_gitlab_router(state, root, self.events),
        ]

    async def pushed(
        self, owner: str, repo: str, request: Request, moved: list[tuple[str, str, str]]
    ) -> None:
        """After a git push: by whoever's token authenticated it (the bot when unknown)."""
        full = f"{owner}/{repo}".lower()
        project = next(p for p in projects(self._state) if p["path_with_namespace"].lower() == full)
        pusher = holder(self._state, request_token(request))
        await self.pushes.moved(project, moved, pusher, base_of(request))

    async def aclose(self) -> None:
        """Stop the jobs and deliveries still going."""
        await self.ci.aclose()
        await self.hooks.aclose()
