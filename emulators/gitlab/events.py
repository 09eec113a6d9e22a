"""The GitLab emulator's changes told as webhooks: each reads what git knows of the commits
involved and sends the hook in GitLab's shape."""

from pathlib import Path

from emulators.github.commits import ZERO, commit_facts, pushed_commits
from emulators.github.mergeable import git_out
from emulators.gitlab import hook_shapes as shapes
from emulators.gitlab.store import Json, bare_of, bot, owned_list, user_by_id, user_by_name
from emulators.gitlab.webhooks import GitLabWebhooks
from emulators.state import EmulatorState


class GitLabEvents:
    """Sends the Merge Request, Note, Pipeline and Push Hooks of one emulator."""

    def __init__(self, state: EmulatorState, repos_root: Path, hooks: GitLabWebhooks) -> None:
        self._state, self._repos_root, self.hooks = state, repos_root, hooks

    async def _commit(self, p: Json, sha: str | None, base: str) -> Json:
        facts = await commit_facts(bare_of(self._repos_root, p), sha) if sha else None
        return shapes.commit(facts, sha or "", p, base)

    async def merge_request(
        self, p: Json, mr: Json, actor: Json, action: str, base: str,
        changes: Json | None = None, oldrev: str | None = None,
    ) -> None:  # fmt: skip
        """A Merge Request Hook (`open`, `update`, `close`, `reopen`, `merge`)."""
        author = user_by_name(self._state, mr["author"])
        last = await self._commit(p, mr.get("sha"), base)
        payload = shapes.merge_request_hook(
            p, mr, actor, author, action, last, base, changes, oldrev
        )
        self.hooks.send("Merge Request Hook", payload, base)

    async def note(self, p: Json, mr: Json, note: Json, actor: Json, base: str) -> None:
        """A Note Hook for a note on a merge request."""
        author = user_by_name(self._state, mr["author"])
        last = await self._commit(p, mr.get("sha"), base)
        self.hooks.send("Note Hook", shapes.note_hook(p, mr, note, actor, author, last, base), base)

    async def pipeline(self, p: Json, pl: Json, base: str) -> None:
        """A Pipeline Hook with the pipeline's latest jobs and the merge request of its ref."""
        actor = user_by_id(self._state, pl["user_id"]) or bot(self._state)
        jobs = [
            j for j in owned_list(p, "jobs") if j["pipeline_id"] == pl["id"] and not j["retried"]
        ]
        builds = [shapes.build(j, actor, base) for j in jobs]
        mr = next(
            (m for m in owned_list(p, "merge_requests")
             if m["source_branch"] == pl["ref"] and m["state"] == "opened"),
            None,
        )  # fmt: skip
        head = await self._commit(p, pl["sha"], base)
        payload = shapes.pipeline_hook(p, pl, builds, actor, mr, head, base)
        self.hooks.send("Pipeline Hook", payload, base)

    async def push(
        self, p: Json, ref: str, before: str, after: str, pusher: Json, base: str
    ) -> None:
        """A Push Hook for one moved branch, with the commits it brought."""
        bare = bare_of(self._repos_root, p)
        brought = await pushed_commits(bare, before, after)
        commits = [shapes.commit(f, f["sha"], p, base) for f in brought]
        _, count = await git_out(
            bare, "rev-list", "--count", after if before == ZERO else f"{before}..{after}"
        )
        total = int(count) if count.isdigit() else len(commits)
        payload = shapes.push_hook(p, ref, before, after, pusher, commits, total, base)
        self.hooks.send("Push Hook", payload, base)
