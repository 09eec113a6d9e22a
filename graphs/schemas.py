"""Plain, serialisable results of the agent graphs: what activities return and workflows store."""

from typing import Literal

from pydantic import BaseModel, Field


class TicketContext(BaseModel):
    """The parts of a Jira ticket the graphs read."""

    key: str
    summary: str
    description: str
    labels: list[str] = Field(default_factory=list)
    acceptance_criteria: str | None = None


class Analysis(BaseModel):
    """What the analysis graph learned about the repository."""

    summary: str
    languages: list[str]
    frameworks: list[str]
    test_command: str | None
    files: list[str] = Field(max_length=300)
    environment: str = ""  # how the repository declares its dependencies, as detected
    produced_offline: bool = False
    tokens: int = 0


class Question(BaseModel):
    """One clarifying question for the ticket's reporter."""

    text: str
    why: str


class QuestionSet(BaseModel):
    """The clarifying questions; `clear` means none are needed."""

    questions: list[Question] = Field(max_length=5)
    clear: bool
    produced_offline: bool = False
    tokens: int = 0


class Requirements(BaseModel):
    """Refined requirements; when not `clear`, the follow-up questions still open."""

    requirements: list[str]
    acceptance_criteria: list[str]
    followup_questions: list[Question] = Field(default_factory=list, max_length=3)
    clear: bool = True
    produced_offline: bool = False
    tokens: int = 0


class PlannedFile(BaseModel):
    """One file the plan touches."""

    path: str
    action: Literal["create", "modify", "delete"]
    purpose: str


class Contract(BaseModel):
    """An interface the plan promises: the file, the signature and how it behaves."""

    path: str
    signature: str
    behaviour: str


class Plan(BaseModel):
    """A versioned implementation plan and its rendered markdown."""

    version: int
    summary: str
    files: list[PlannedFile]
    test_plan: list[str]
    risks: list[str]
    addresses_feedback: list[str] = Field(default_factory=list)
    contracts: list[Contract] = Field(default_factory=list)
    changes_since_previous: list[str] = Field(default_factory=list)
    markdown: str
    produced_offline: bool = False
    tokens: int = 0


class FileChange(BaseModel):
    """The whole new content of one file; `delete` removes the file instead."""

    path: str
    content: str
    delete: bool = False


class TestReport(BaseModel):
    """One run of the project's test command on the changed files."""

    __test__ = False  # not a pytest test class

    passed: bool
    exit_code: int
    output: str
    timed_out: bool = False
    duration_seconds: float = 0
    environment: str = ""  # where its dependencies came from
    environment_error: str | None = None  # the environment could not be built
    limit: str | None = None  # the sandbox limit that stopped it
    sandboxed: bool = False


class Implementation(BaseModel):
    """The file changes, the last test run and the QA verdict of the implementation graph.

    `tests_passed` is None when no test command ran; `revisions` counts rounds of workers.
    """

    changes: list[FileChange]
    notes: str
    tests_passed: bool | None = None
    test_output: str = ""
    # The last test run itself (output trimmed), where a test command ran.
    last_tests: TestReport | None = None
    qa_passed: bool | None = None
    qa_verdict: str = ""
    revisions: int = 0
    produced_offline: bool = False
    tokens: int = 0
