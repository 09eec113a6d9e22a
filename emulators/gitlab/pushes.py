"""What a push to a GitLab project's repository sets off: a Push Hook per moved branch, a Merge
Request Hook `update` (with `oldrev`) for each open merge request whose source branch moved,
and a pipeline per moved branch when the emulated CI is on."""

from pathlib import Path

from emulators.gitlab.ci import GitLabCI
from emulators.gitlab.events import GitLabEvents
from emulators.gitlab.routes import branch_head
from emulators.gitlab.store import Json, bare_of, gitlab_time, owned_list
from emulators.state import EmulatorState


class GitLabPushes:
    """Tells one emulator's hooks and CI of the branches a push (or a merge) moved."""

    def __init__(
        self, state: EmulatorState, repos_root: Path, events: GitLabEvents, ci: GitLabCI | None
    ) -> None:
        self._state, self._repos_root, self._events, self._ci = state, repos_root, events, ci

    async def moved(
        self, p: Json, refs: list[tuple[str, str, str]], pusher: Json, base: str
    ) -> None:
        """`refs`: each moved branch's ref, old head (forty zeros when new) and new head."""
        for ref, before, after in refs:
            await self._events.push(p, ref, before, after, pusher, base)
        bare = bare_of(self._repos_root, p)
        for mr in owned_list(p, "merge_requests"):
            if mr["state"] != "opened":
                continue
            head = await branch_head(bare, mr["source_branch"])
            if head is None or head == mr.get("sha"):
                continue
            stamp, oldrev = gitlab_time(), mr.get("sha")
            changes = {"updated_at": {"previous": mr["updated_at"], "current": stamp}}
            mr.update(sha=head, updated_at=stamp)
            self._state.save()
            await self._events.merge_request(p, mr, pusher, "update", base, changes, oldrev)
        if self._ci is not None:
            for ref, before, after in refs:
                self._ci.pushed(p, ref, before, after, pusher, base)
