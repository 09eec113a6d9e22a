"""The repository's own tests stay as they are unless the ticket names the test file.

On the local model a plan chose to rewrite the repository's test file for a new function;
both revisions broke an existing test there and were discarded. A planned change to an
existing test file becomes an addition (the loop keeps its tests, `Plan.kept_tests`); a
planned deletion of one is dropped.
"""

import re
from pathlib import PurePosixPath

from graphs.planning.paths import is_test_path
from graphs.schemas import PlannedFile

ADDED = " (the change's tests are added after the existing ones, which stay as they are)"
KEPT = (
    "`{path}` keeps the repository's tests as they are; the change's tests are added after "
    "them: the ticket does not name the file."
)
NOT_DELETED = "Dropped deleting `{path}`: the ticket does not name this test file."


def names_test_file(text: str, path: str) -> bool:
    """Whether the text names this test file: its path, or its file name."""
    named = re.search(rf"(?<![\w/.-]){re.escape(PurePosixPath(path).name)}\b", text)
    return path in text or named is not None


def keep_existing_tests(
    files: list[PlannedFile], repository: list[str], asked: str
) -> tuple[list[PlannedFile], list[str], list[str]]:
    """The planned files with the repository's test files added to, never rewritten or
    deleted, unless `asked` (the ticket's and the reporter's words) names the file; the test
    files kept, and a line for each (for the plan's risks, so the approver sees it)."""
    existing = set(repository)
    planned: list[PlannedFile] = []
    kept: list[str] = []
    notes: list[str] = []
    for file in files:
        own_test = file.path in existing and is_test_path(file.path)
        if not own_test or names_test_file(asked, file.path):
            planned.append(file)
        elif file.action == "delete":
            notes.append(NOT_DELETED.format(path=file.path))
        else:
            kept.append(file.path)
            notes.append(KEPT.format(path=file.path))
            purpose = file.purpose.rstrip(".") + ADDED
            planned.append(file.model_copy(update={"action": "modify", "purpose": purpose}))
    return planned, kept, notes
