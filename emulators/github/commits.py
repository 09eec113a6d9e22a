"""What git knows of commits, read from a bare repository for the emulator's webhooks."""

from pathlib import Path
from typing import Any

from emulators.github.mergeable import git_out

ZERO = "0" * 40
_FIELDS = ("sha", "tree", "parents", "author_name", "author_email", "author_date",
           "committer_name", "committer_email", "committer_date", "message")  # fmt: skip
_FORMAT = "%x00".join(("%H", "%T", "%P", "%an", "%ae", "%aI", "%cn", "%ce", "%cI", "%B"))
_CHANGES = {"A": "added", "D": "removed", "M": "modified"}
MAX_PUSHED = 20  # GitHub lists at most 20 commits in a push event


async def commit_facts(bare: Path, sha: str) -> dict[str, Any] | None:
    """A commit's ids, people, dates and message, and the files it added, removed, modified."""
    code, out = await git_out(bare, "show", "-s", f"--format={_FORMAT}", sha)
    if code != 0 or not out:
        return None
    facts: dict[str, Any] = dict(zip(_FIELDS, out.split("\x00"), strict=True))
    facts["parents"] = facts["parents"].split()
    facts["message"] = facts["message"].strip()
    _, changed = await git_out(bare, "diff-tree", "--no-commit-id", "-r", "--name-status",
                               "--root", sha)  # fmt: skip
    files: dict[str, list[str]] = {name: [] for name in _CHANGES.values()}
    for line in changed.splitlines():
        kind, _, path = line.partition("\t")
        files[_CHANGES.get(kind[:1], "modified")].append(path)
    return facts | files


async def pushed_commits(bare: Path, before: str, after: str) -> list[dict[str, Any]]:
    """The commits a push brought, oldest first (the last MAX_PUSHED)."""
    span = after if before == ZERO else f"{before}..{after}"
    _, listed = await git_out(bare, "rev-list", "--reverse", span)
    found = [await commit_facts(bare, sha) for sha in listed.split()[-MAX_PUSHED:]]
    return [f for f in found if f is not None]
