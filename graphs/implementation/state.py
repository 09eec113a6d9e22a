"""State of the implementation graph: the whole run, and one worker's share of it."""

import operator
from pathlib import Path
from typing import Annotated, TypedDict

from graphs.analysis.index import Snippet
from graphs.schemas import (
    FileChange,
    Implementation,
    Plan,
    PlannedFile,
    Requirements,
    TicketContext,
)


class ImplementationInput(TypedDict):
    """What the graph is started with."""

    repo_dir: Path
    ticket: TicketContext
    plan: Plan
    requirements: Requirements | None


class Assignment(TypedDict):
    """One planned file and the related code its worker is shown."""

    file: PlannedFile
    context: list[Snippet]


class ImplementationState(ImplementationInput, total=False):
    """Everything the nodes read and write; workers' results are merged by the reducers."""

    assignments: list[Assignment]
    changes: Annotated[list[FileChange], operator.add]
    notes: Annotated[list[str], operator.add]
    tokens: Annotated[int, operator.add]
    implementation: Implementation


class WorkerState(ImplementationInput):
    """What one worker is sent: the shared input plus its assignment."""

    assignment: Assignment
