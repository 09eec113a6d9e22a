"""A revision with a file that does not compile or import is still tested, that file held back.

A small model asked to fix an import error often writes the same line again (a package
`__init__.py` importing `pkg.module.function`), and sending the file back alone leaves the
rest of the change without any test run. Held at its best version, the file stops blocking.
"""

from pathlib import Path

from graphs.implementation.revision import revert_files
from graphs.implementation.tester.best import Standing
from graphs.schemas import FileChange

HELD_PART = "held"


def held_back(
    changes: list[FileChange], errors: dict[str, str], best: Standing
) -> list[FileChange]:
    """The revision with each broken file at its version in the best revision (left out where
    the best revision did not change it)."""
    kept = [c for c in changes if c.path not in errors]
    return kept + [best.files[p] for p in sorted(errors) if p in best.files]


def is_best(changes: list[FileChange], best: Standing) -> bool:
    """Whether the changes are exactly the best revision's."""
    return {c.path: c for c in changes} == best.files


def hold_update(
    repo_dir: Path, files: dict[str, FileChange], errors: dict[str, str], best: Standing
) -> dict[str, FileChange]:
    """The state update putting each broken file back to its best version (a file created
    by the change and never good is dropped)."""
    broken = {p: files[p] for p in errors if p in files}
    update = revert_files(repo_dir, broken, best.files)
    for path in broken:
        update.setdefault(path, FileChange(path=path, content="", delete=True))
    return update


def held_note(revision: int, errors: dict[str, str]) -> str:
    """The note saying which files the revision was tested without, and why."""
    held = "; ".join(f"{path} ({error})" for path, error in sorted(errors.items()))
    return f"revision {revision}: tested with the best version of {held}"
