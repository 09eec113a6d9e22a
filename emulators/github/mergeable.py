"""A pull request's merge state from its bare repository, as GitHub reports it."""

import asyncio
from pathlib import Path
from typing import Any


async def git_out(bare: Path, *args: str) -> tuple[int, str]:
    """Exit code and output of a git command on a bare repository."""
    proc = await asyncio.create_subprocess_exec(
        "git",
        "--git-dir",
        str(bare),
        *args,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
    )
    out, _ = await proc.communicate()
    return proc.returncode or 0, out.decode().strip()


async def merge_tree(bare: Path, base: str, head: str) -> str | None:
    """The tree of merging `head` into `base`, None when they conflict."""
    code, out = await git_out(bare, "merge-tree", "--write-tree", base, head)
    return out.splitlines()[0] if code == 0 and out else None


async def merge_state(pr: dict[str, Any], bare: Path) -> dict[str, Any]:
    """`merged`, `mergeable` and `mergeable_state` of a pull request, from the real repository."""
    if pr.get("merged"):
        return {
            "locked": False, "merged": True, "merged_at": pr.get("merged_at"),
            "mergeable": None, "mergeable_state": "unknown",
            "merge_commit_sha": pr.get("merge_commit_sha"),
        }  # fmt: skip
    mergeable = None
    if pr["state"] == "open" and bare.is_dir():
        mergeable = await merge_tree(bare, pr["base_sha"], pr["head_sha"]) is not None
    state = {True: "clean", False: "dirty", None: "unknown"}[mergeable]
    return {
        "locked": False, "merged": False, "merged_at": None, "mergeable": mergeable,
        "mergeable_state": state, "merge_commit_sha": None,
    }  # fmt: skip
