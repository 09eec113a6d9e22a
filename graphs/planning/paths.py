"""Planned paths resolved to the repository's own files: a plan names files as they are."""

from pathlib import PurePosixPath

from graphs.schemas import PlannedFile

RESOLVED = "Planned `{planned}` is the repository's `{existing}`: the plan now names it."
MOVED = "Planned new file `{planned}` sits where no code lives; placed beside the code: `{moved}`."


def resolve_paths(
    files: list[PlannedFile], repository: list[str]
) -> tuple[list[PlannedFile], list[str]]:
    """The planned files with each path the repository lacks resolved to the file it means,
    and a risk line for each change (so the approver sees it).

    A file to change that the repository lacks, or a new file in a folder that does not exist,
    means the one source file of the repository with its name (`src/stats.py` for
    `csvsum/stats.py`); failing that, a new file in a folder that does not exist goes into
    the repository's one top-level package, when it has one. A new file beside existing code
    stays as planned.
    """
    existing = set(repository)
    folders = {str(PurePosixPath(f).parent) for f in repository}
    packages = sorted(
        {f.split("/")[0] for f in repository if f.count("/") == 1 and f.endswith("/__init__.py")}
        - {"tests", "test"}
    )
    resolved: list[PlannedFile] = []
    notes: list[str] = []
    for planned in files:
        path = planned.path
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
            resolved.append(planned.model_copy(update={"path": named[0], "action": "modify"}))
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
            resolved.append(planned.model_copy(update={"path": moved}))
            continue
        resolved.append(planned)
    unique = {f.path: f for f in reversed(resolved)}
    return [f for f in resolved if unique.get(f.path) is f], notes


def _same_name(candidate: str, path: str) -> bool:
    return PurePosixPath(candidate).name == PurePosixPath(path).name


def is_test_path(path: str) -> bool:
    """Whether a path is a test module or lies in a tests folder."""
    name = PurePosixPath(path).name
    parts = PurePosixPath(path).parts
    return name.startswith("test_") or name.endswith("_test.py") or "tests" in parts[:-1]
