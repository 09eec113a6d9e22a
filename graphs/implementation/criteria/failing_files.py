"""Source files the plan left out that the acceptance tests show the change needs.

A three-module ticket ("the import fails on `hall,3.5,2`") can be planned on the two modules
that keep and show a record, not on the one that parses the line; the acceptance tests, shown
the parser, call it and fail inside it. Those tests are written from the ticket, so where
they fail on the original code is where the change belongs.
"""

import re
from pathlib import Path

from graphs.analysis.index import CodeIndex
from graphs.implementation.revision import is_test_file
from graphs.planning.paths import is_test_path
from graphs.schemas import FailedTest, TicketContext
from llm.fences import safe_relative_path

RELATED_SOURCES = 2
MAX_JOINED = 2
FRAME = re.compile(r"^([\w./-]+\.py):\d+: ", re.MULTILINE)


def is_source(path: str, repo_dir: Path) -> bool:
    """Whether the path is a Python source file of the repository, not a test."""
    return (
        safe_relative_path(path) == path
        and path.endswith(".py")
        and not is_test_path(path)
        and not is_test_file(path)
        and (repo_dir / path).is_file()
    )


def related_sources(
    index: CodeIndex | None, ticket: TicketContext, planned: list[str], repo_dir: Path
) -> list[str]:
    """The source files the ticket's words rank highest that the plan does not hold."""
    if index is None:
        return []
    query = f"{ticket.summary}\n{ticket.description}\n{ticket.acceptance_criteria or ''}"
    found: list[str] = []
    for snippet in index.context_query(query, k=RELATED_SOURCES + len(planned) + 4):
        path = snippet.path
        if path not in planned and path not in found and is_source(path, repo_dir):
            found.append(path)
    return found[:RELATED_SOURCES]


def failing_sources(failures: list[FailedTest], planned: list[str], repo_dir: Path) -> list[str]:
    """The repository's source files, not planned, where the failures' tracebacks end."""
    found: list[str] = []
    for failure in failures:
        frames = [p for p in FRAME.findall(failure.details) if is_source(p, repo_dir)]
        if frames and frames[-1] not in planned and frames[-1] not in found:
            found.append(frames[-1])
    return found[:MAX_JOINED]
