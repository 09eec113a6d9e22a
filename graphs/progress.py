"""What an implementation run reports while it runs: revision, files, tests, QA, tokens."""

from pydantic import BaseModel, Field

from graphs.test_summary import tests_line


class TestCounts(BaseModel):
    """What the last test run said: counts read from the test runner's summary line."""

    __test__ = False  # not a pytest test class

    passed: bool
    passed_count: int = 0
    failed_count: int = 0
    exit_code: int = 0


class ImplementationProgress(BaseModel):
    """Where the implementation graph is: revision, files being written, tests, QA, tokens.

    `sequence` grows with every report, so a report that arrives late never replaces a newer one.
    """

    sequence: int = 0
    revision: int = 0
    max_revisions: int = 0
    stage: str = ""
    writing: list[str] = Field(default_factory=list)
    tests: TestCounts | None = None
    qa_verdict: str | None = None
    tokens: int = 0


def progress_markdown(progress: ImplementationProgress) -> str:
    """The implementation's progress as a few markdown lines, for the Web UI's current details."""
    lines = [f"Revision {progress.revision} of {progress.max_revisions}: {progress.stage}"]
    if progress.writing:
        lines.append("Writing " + ", ".join(f"`{path}`" for path in progress.writing))
    if progress.tests is not None:
        lines.append(f"Last test run: {tests_line(progress.tests.model_dump())}")
    if progress.qa_verdict:
        lines.append(f"QA: {progress.qa_verdict}")
    lines.append(f"Implementation tokens: {progress.tokens:,}")
    return "\n\n".join(lines)
