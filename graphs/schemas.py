"""Plain, serialisable results of the agent graphs: what activities return and workflows store."""

import re
from typing import Literal

from pydantic import BaseModel, Field, field_validator

from graphs.question import Question
from llm.cost import ModelCost

__all__ = ["Question"]

LIST_MARKER = re.compile(r"^\s*(?:[-*+\u2022]|\d+[.)])\s+")


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
    cost: ModelCost = Field(default_factory=ModelCost)
    # The repository's own instructions (AGENTS.md, CONTRIBUTING.md, ...), condensed.
    instructions: str = ""
    instruction_files: list[str] = Field(default_factory=list)


class QuestionSet(BaseModel):
    """The clarifying questions; `clear` means none are needed."""

    questions: list[Question] = Field(max_length=5)
    clear: bool
    produced_offline: bool = False
    tokens: int = 0
    cost: ModelCost = Field(default_factory=ModelCost)


class Requirements(BaseModel):
    """Refined requirements; when not `clear`, the follow-up questions still open."""

    requirements: list[str]
    acceptance_criteria: list[str]
    followup_questions: list[Question] = Field(default_factory=list, max_length=3)
    clear: bool = True
    produced_offline: bool = False
    tokens: int = 0
    cost: ModelCost = Field(default_factory=ModelCost)
    answers: list[str] = Field(default_factory=list)  # the reporter's, as written (untrusted)
    answered_questions: list[str] = Field(default_factory=list)  # the questions they settle

    @field_validator("requirements", "acceptance_criteria")
    @classmethod
    def _without_list_markers(cls, items: list[str]) -> list[str]:
        """Items as text: a model copying a ticket's bullets writes `- ` into them."""
        return [LIST_MARKER.sub("", item).strip() for item in items]


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
    cost: ModelCost = Field(default_factory=ModelCost)
    fallback: str = ""  # why the model's plan was unusable, when this one was built without it
    instructions_followed: list[str] = Field(default_factory=list)  # the files it was told to
    # The repository's test files the change adds tests to, their own tests kept as they are.
    kept_tests: list[str] = Field(default_factory=list)
    # The model's answer when the ticket is a question (untrusted text, shown as its answer).
    answer: str = ""

    @property
    def answer_only(self) -> bool:
        """Whether the ticket is answered instead of changed: an answer and no planned file."""
        return bool(self.answer.strip()) and not self.files


class FileChange(BaseModel):
    """The whole new content of one file; `delete` removes the file instead."""

    path: str
    content: str
    delete: bool = False


class Returned(BaseModel):
    """Where a test's last call into a changed file returned, from a traced rerun."""

    path: str
    line: int
    code: str  # the source of that line
    arguments: str  # "name = repr, ..." as called
    value: str  # the repr of what it returned


class FailedTest(BaseModel):
    """A test that failed (or could not be collected) and how."""

    test_id: str
    file: str
    message: str
    details: str = ""
    returned: Returned | None = None


class TestReport(BaseModel):
    """One run of the project's test command on the changed files.

    The test lists come from the runner's report (pytest's junit XML) when it gave one;
    `import_errors` names changed files that did not import, in which case no test ran.
    """

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
    passed_tests: list[str] = Field(default_factory=list)
    failed_tests: list[FailedTest] = Field(default_factory=list)
    import_errors: dict[str, str] = Field(default_factory=dict)
    # One line per check command the repository's instructions name: "`cmd`: passed" or not.
    checks: list[str] = Field(default_factory=list)

    @property
    def counted(self) -> bool:
        """Whether the run reported its tests one by one."""
        return bool(self.passed_tests or self.failed_tests)


class CriterionCoverage(BaseModel):
    """An acceptance criterion and the test that exercises it (None: no test does)."""

    criterion: str
    test: str | None = None
    passed: bool | None = None
    # The test is one the change added (not among the repository's tests before it).
    added: bool = False


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
    cost: ModelCost = Field(default_factory=ModelCost)
    # The revision the changes come from: the best by tests passed (0: the checkout as it was).
    best_revision: int | None = None
    # Tests of the last counted run: the repository's own apart from those the change adds.
    own_tests_passed: int = 0
    own_tests_failed: int = 0
    new_tests_passed: int = 0
    new_tests_failed: int = 0
    failing_tests: list[str] = Field(default_factory=list)
    criteria: list[CriterionCoverage] = Field(default_factory=list)
    # What a review round's revision changed that no comment is about, put back.
    left_out: list[str] = Field(default_factory=list)
    # The commit the changes were written against, where a pull-request round knows it.
    base_sha: str | None = None
