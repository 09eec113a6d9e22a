"""State of the implementation graph: the whole run, one worker's share, and the QA review."""

import operator
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Annotated, NotRequired, TypedDict

from pydantic import BaseModel, Field

from graphs.analysis.index import CodeIndex, Snippet
from graphs.implementation.tester.best import Standing
from graphs.implementation.tester.outcome import RevisionOutcome
from graphs.planning.state import Line, PathText, Summary
from graphs.schemas import (
    Analysis,
    FailedTest,
    FileChange,
    Implementation,
    Plan,
    PlannedFile,
    Requirements,
    TestReport,
    TicketContext,
)
from llm.structured import capped

MAX_FIXES = 10

# Runs the project's tests with these changes applied to a clean checkout.
Tester = Callable[[list[FileChange]], Awaitable[TestReport]]


class Fix(BaseModel):
    """One thing QA wants changed in one file."""

    path: str
    instruction: str


class Review(BaseModel):
    """The QA verdict on one revision."""

    passed: bool
    summary: str
    fixes: Annotated[list[Fix], capped(MAX_FIXES), Field(max_length=MAX_FIXES)] = Field(
        default_factory=list
    )


class FixAnswer(BaseModel):
    """One fix as the model writes it (a `Fix` with bounds)."""

    path: PathText
    instruction: Line


class ReviewAnswer(BaseModel):
    """QA's verdict as the model writes it (a `Review` with bounds, which a local server's
    grammar keeps: a review that looped in its summary ran on for minutes)."""

    passed: bool
    summary: Summary
    fixes: Annotated[list[FixAnswer], capped(MAX_FIXES), Field(max_length=MAX_FIXES)] = Field(
        default_factory=list
    )

    def review(self) -> Review:
        """The verdict as the loop keeps it."""
        return Review.model_validate(self.model_dump())


def merge_files(left: dict[str, FileChange], right: dict[str, FileChange]) -> dict[str, FileChange]:
    """The latest version of every file: later rounds replace earlier ones."""
    return {**left, **right}


class ImplementationInput(TypedDict):
    """What the graph is started with."""

    repo_dir: Path
    ticket: TicketContext
    plan: Plan
    requirements: Requirements | None
    analysis: NotRequired[Analysis | None]
    # The repository's own instructions as prompts show them ("" when it has none).
    instructions: NotRequired[str]


class Assignment(TypedDict):
    """One planned file and the related code its worker is shown."""

    file: PlannedFile
    context: list[Snippet]


class ImplementationState(ImplementationInput, total=False):
    """Everything the nodes read and write; workers' results are merged by the reducers."""

    index: CodeIndex
    assignments: list[Assignment]
    revision: int
    # What people said to the run, as the workers are shown it, and the ids already given.
    guidance: str
    guided: list[int]
    round_paths: list[str]
    files: Annotated[dict[str, FileChange], merge_files]
    notes: Annotated[list[str], operator.add]
    tokens: Annotated[int, operator.add]
    # The digest of the last tested revision's changes: an equal one means nothing changed.
    fingerprint: str
    # What the tester decided about the last revision; the routers match on it.
    outcome: RevisionOutcome | None
    tests: TestReport | None
    # How the acceptance tests fail on the original code: the first revision's feedback.
    first_failures: list[FailedTest]
    # The checks said to hold already that fail on the original code: run only to prefer
    # among drafts of the first revision, never kept.
    disputed: FileChange | None
    review: Review | None
    implementation: Implementation
    # The best revision so far by tests passed; the pull request carries it.
    best: Standing | None


class WorkerState(ImplementationInput):
    """What one worker is sent: the shared input, its assignment and the round's feedback."""

    assignment: Assignment
    index: CodeIndex
    revision: int
    current: str | None
    feedback: str
    # Whether the last revision changed nothing (the answer is then asked for warmer).
    warm: NotRequired[bool]
    # The lines (from 1) that reject a failing test's inputs, shown alone to a stuck worker.
    focus: NotRequired[tuple[int, int] | None]
