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
    """Refined requirements: the ticket plus the reporter's answers."""

    requirements: list[str]
    acceptance_criteria: list[str]
    produced_offline: bool = False
    tokens: int = 0


class PlannedFile(BaseModel):
    """One file the plan touches."""

    path: str
    action: Literal["create", "modify", "delete"]
    purpose: str


class Plan(BaseModel):
    """A versioned implementation plan and its rendered markdown."""

    version: int
    summary: str
    files: list[PlannedFile]
    test_plan: list[str]
    risks: list[str]
    addresses_feedback: list[str] = Field(default_factory=list)
    markdown: str
    produced_offline: bool = False
    tokens: int = 0


class FileChange(BaseModel):
    """The whole new content of one file; `delete` removes the file instead."""

    path: str
    content: str
    delete: bool = False


class Implementation(BaseModel):
    """The file changes the implementation graph produced."""

    changes: list[FileChange]
    notes: str
    produced_offline: bool = False
    tokens: int = 0
