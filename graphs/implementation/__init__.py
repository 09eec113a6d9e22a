"""The implementation graph: parallel workers per file, the project's tests, QA and fix rounds."""

from graphs.implementation.graph import MAX_REVISIONS, build_implementation_graph, implement_plan
from graphs.implementation.journal import Journal, Progress
from graphs.implementation.state import Tester

__all__ = [
    "MAX_REVISIONS",
    "Journal",
    "Progress",
    "Tester",
    "build_implementation_graph",
    "implement_plan",
]
