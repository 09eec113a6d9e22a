"""The repository's own tests stay as they are unless the ticket asks to change them.

On the local model a plan chose to rewrite the repository's test file for a new function;
both revisions broke an existing test there and were discarded. A planned change to an
existing test file becomes an addition (the loop keeps its tests, `Plan.kept_tests`); a
planned deletion of one is dropped.
"""

import re
from pathlib import PurePosixPath

from graphs.planning.paths import is_test_path
from graphs.schemas import PlannedFile

CHANGE_VERBS = (
    "update|change|fix|rewrite|modify|edit|adjust|correct|replace|remove|delete|rename|"
    "refactor|migrate|convert|repair|move|reorganise|reorganize"
)
# A word that starts a clause of its own: "fix the bug so tests pass" asks for no test change.
CLAUSE = r"(?:so|and|or|then|that|to|until|when|while|because|before|after|if)\b"
# "update the existing tests", "fix the flaky test", "tests must be updated"
ASKS_TO_CHANGE_TESTS = re.compile(
    rf"\b(?:{CHANGE_VERBS})\w*\s+(?:(?!{CLAUSE})[\w`'-]+\s+){{0,3}}tests?\b"
    rf"|\btests?\s+(?:(?!(?:not|never|no)\b)\w+\s+){{0,2}}(?:be\s+)?(?:{CHANGE_VERBS})\w*",
    re.IGNORECASE,
)
ADDED = " (the change's tests are added after the existing ones, which stay as they are)"
KEPT = (
    "`{path}` keeps the repository's tests as they are; the change's tests are added after "
    "them: the ticket does not ask to change its tests."
)
NOT_DELETED = "Dropped deleting `{path}`: the ticket does not ask to change the repository's tests."


def asks_to_change_tests(text: str, path: str) -> bool:
    """Whether the text asks to change the repository's tests, or names this test file."""
    named = re.search(rf"(?<![\w/.-]){re.escape(PurePosixPath(path).name)}\b", text)
    return path in text or named is not None or ASKS_TO_CHANGE_TESTS.search(text) is not None


def keep_existing_tests(
    files: list[PlannedFile], repository: list[str], asked: str
) -> tuple[list[PlannedFile], list[str], list[str]]:
    """The planned files with the repository's test files added to, never rewritten or
    deleted, unless `asked` (the ticket's and the reporter's words) asks for it; the test
    files kept, and a line for each (for the plan's risks, so the approver sees it)."""
    existing = set(repository)
    planned: list[PlannedFile] = []
    kept: list[str] = []
    notes: list[str] = []
    for file in files:
        own_test = file.path in existing and is_test_path(file.path)
        if not own_test or asks_to_change_tests(asked, file.path):
            planned.append(file)
        elif file.action == "delete":
            notes.append(NOT_DELETED.format(path=file.path))
        else:
            kept.append(file.path)
            notes.append(KEPT.format(path=file.path))
            purpose = file.purpose.rstrip(".") + ADDED
            planned.append(file.model_copy(update={"action": "modify", "purpose": purpose}))
    return planned, kept, notes
