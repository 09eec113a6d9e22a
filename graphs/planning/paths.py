"""Planned paths resolved to the repository's own files: a plan names files as they are."""

import re
from collections.abc import Sequence
from pathlib import PurePosixPath
from typing import NamedTuple

from graphs.schemas import PlannedFile

RESOLVED = "Planned `{planned}` is the repository's `{existing}`: the plan now names it."
MOVED = "Planned new file `{planned}` sits where no code lives; placed beside the code: `{moved}`."
REDIRECTED = (
    "Planned `{planned}` to change is not in the repository, and the ticket does not ask for"
    " it; the plan now names `{existing}`, the code that matches the ticket best."
)
EXISTS = "Planned to create `{path}`, which the repository has: the plan now changes it."
SOURCE_SUFFIXES = {".py", ".js", ".ts", ".tsx", ".go", ".rs", ".java", ".rb"}


class ResolvedPaths(NamedTuple):
    """The planned files as resolved, a risk line per change, and each path renamed."""

    files: list[PlannedFile]
    notes: list[str]
    renamed: dict[str, str]


def resolve_paths(
    files: list[PlannedFile],
    repository: list[str],
    related: Sequence[str] = (),
    asked: str = "",
) -> ResolvedPaths:
    """The planned files with each path the repository lacks resolved to the file it means,
    and a risk line for each change (so the approver sees it).

    A file to change that the repository lacks, or a new file in a folder that does not exist,
    means the one source file of the repository with its name (`src/stats.py` for
    `csvsum/stats.py`); failing that, a file to change that the ticket (`asked`) does not
    name means the first `related` source file, ranked by the ticket's words (one entry when
    it is planned already): in a large repository the small model invented
    `depot/billing/calculate_weight.py` for the weight `depot/shipping/weights.py` works out.
    A new file in a folder that does not exist goes into the repository's one top-level
    package, when it has one. A new file beside existing code stays as planned. A file to
    create that the repository has is one to change: its code is kept.
    """
    existing = set(repository)
    renamed: dict[str, str] = {}
    folders = {str(PurePosixPath(f).parent) for f in repository}
    packages = sorted(
        {f.split("/")[0] for f in repository if f.count("/") == 1 and f.endswith("/__init__.py")}
        - {"tests", "test"}
    )
    resolved: list[PlannedFile] = []
    notes: list[str] = []
    for planned in files:
        path = planned.path
        if path in existing and planned.action == "create":
            notes.append(EXISTS.format(path=path))
            resolved.append(planned.model_copy(update={"action": "modify"}))
            continue
        if path in existing or planned.action == "delete":
            resolved.append(planned)
            continue
        parent = str(PurePosixPath(path).parent)
        if planned.action == "create" and (parent in folders or parent == "."):
            resolved.append(planned)  # a new file beside the repository's code
            continue
        named = [f for f in repository if _same_name(f, path) and not is_test_path(f)]
        if len(named) == 1:
            notes.append(RESOLVED.format(planned=path, existing=named[0]))
            renamed[path] = named[0]
            resolved.append(planned.model_copy(update={"path": named[0], "action": "modify"}))
            continue
        target = _related_target(planned, related, existing, asked)
        if target:
            notes.append(REDIRECTED.format(planned=path, existing=target))
            renamed[path] = target
            resolved.append(planned.model_copy(update={"path": target}))
            continue
        parent = str(PurePosixPath(path).parent)
        if (
            parent not in folders
            and parent != "."
            and len(packages) == 1
            and not is_test_path(path)
        ):
            moved = f"{packages[0]}/{PurePosixPath(path).name}"
            notes.append(MOVED.format(planned=path, moved=moved))
            renamed[path] = moved
            resolved.append(planned.model_copy(update={"path": moved}))
            continue
        resolved.append(planned)
    unique = {f.path: f for f in reversed(resolved)}
    return ResolvedPaths([f for f in resolved if unique.get(f.path) is f], notes, renamed)


def _related_target(
    planned: PlannedFile,
    related: Sequence[str],
    existing: set[str],
    asked: str,
) -> str | None:
    """The related source file a change to a missing, unasked-for file is meant for."""
    path = PurePosixPath(planned.path)
    if planned.action != "modify" or is_test_path(planned.path) or mentions_path(asked, path):
        return None
    return next(
        (
            r
            for r in related
            if r in existing
            and PurePosixPath(r).suffix in SOURCE_SUFFIXES
            and PurePosixPath(r).name != "__init__.py"
            and not is_test_path(r)
        ),
        None,
    )


def spells(text: str, words: set[str]) -> bool:
    """Whether the text spells one of the words as a word (not inside a longer path)."""
    return any(re.search(rf"(?<![\w/.]){re.escape(w)}(?![\w])", text) for w in words)


def mentions_path(text: str, path: PurePosixPath) -> bool:
    """Whether the text spells the file's path, its name or its stem as a word."""
    return spells(text, {str(path), path.name, path.stem})


def names_file(text: str, path: PurePosixPath) -> bool:
    """Whether the text spells the file's path or name, or its stem in a code span: a stem in
    prose is as often an English word ("the courier invoices" beside `billing/invoices.py`)."""
    if spells(text, {str(path), path.name}):
        return True
    return any(span.strip() == path.stem for span in re.findall(r"`([^`\n]+)`", text))


def _same_name(candidate: str, path: str) -> bool:
    return PurePosixPath(candidate).name == PurePosixPath(path).name


def is_test_path(path: str) -> bool:
    """Whether a path is a test module or lies in a tests folder."""
    name = PurePosixPath(path).name
    parts = PurePosixPath(path).parts
    return name.startswith("test_") or name.endswith("_test.py") or "tests" in parts[:-1]
