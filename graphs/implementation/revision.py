"""A revision's files against the checkout: a file as it was, the changes, putting files back."""

import hashlib
from pathlib import Path

from graphs.implementation.state import ImplementationState
from graphs.schemas import FileChange


def read_current(path: Path) -> str | None:
    """The file's text ('' when it does not exist), or None when it is binary."""
    if not path.is_file():
        return ""
    data = path.read_bytes()
    if b"\0" in data[:8192]:
        return None
    return data.decode("utf-8", errors="replace")


def is_test_file(path: str) -> bool:
    """Whether a path is a test module by pytest's usual names."""
    name = Path(path).name
    return name.startswith("test_") or name.endswith("_test.py") or name == "conftest.py"


def file_text(repo_dir: Path, files: dict[str, FileChange], path: str) -> str:
    """A file as the revision has it: the changed version, else the checkout's."""
    change = files.get(path)
    if change is not None:
        return "" if change.delete else change.content
    return read_current(repo_dir / path) or ""


def current_changes(state: ImplementationState) -> list[FileChange]:
    """The latest version of every file that differs from the checkout, in plan order."""
    order = {a["file"].path: i for i, a in enumerate(state.get("assignments", []))}
    changes: list[FileChange] = []
    for path, change in state.get("files", {}).items():
        original = read_current(state["repo_dir"] / path)
        if change.delete and (state["repo_dir"] / path).exists():
            changes.append(change)
        elif not change.delete and change.content != original:
            changes.append(change)
    return sorted(changes, key=lambda c: (order.get(c.path, len(order)), c.path))


def revert_files(
    repo_dir: Path,
    files: dict[str, FileChange],
    best: dict[str, FileChange],
    keep: frozenset[str] = frozenset(),
) -> dict[str, FileChange]:
    """The update that puts every file of the state back to its version in the best revision,
    but those in `keep` (the acceptance tests, written before any revision)."""
    reverted: dict[str, FileChange] = {}
    for path in files:
        if path in keep:
            continue
        if path in best:
            reverted[path] = best[path]
            continue
        original = read_current(repo_dir / path)
        if original is not None:  # the checkout's own version: no change
            reverted[path] = FileChange(path=path, content=original)
    return reverted


def fingerprint(changes: list[FileChange]) -> str:
    """A digest of the changes: equal digests mean a revision changed nothing."""
    digest = hashlib.sha256()
    for change in changes:
        digest.update(f"{change.path}\0{change.delete}\0{change.content}\0".encode())
    return digest.hexdigest()
