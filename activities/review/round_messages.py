"""Typed inputs and results of a round's commit and of the judgement of its comments."""

from pydantic import BaseModel, Field

from activities.messages import RepoRef
from graphs.schemas import FileChange
from llm.cost import ModelCost


class CommitRoundInput(BaseModel):
    """Commit a round's files on the commit they were written against and push, never forced."""

    repo: RepoRef
    key: str
    files: list[FileChange]
    message: str
    base_sha: str | None = None  # the head the revision read; None: the remote head
    test_command: str | None = None
    setup_command: str | None = None


class CommitRoundResult(BaseModel):
    """The pushed head, the shas ticketsmith made, and the heads of others it merged in.

    `sha` is None when nothing was pushed: no change, or conflicts it could not resolve.
    """

    sha: str | None
    changed: bool
    own_shas: list[str] = Field(default_factory=list)
    merged_heads: list[str] = Field(default_factory=list)
    unresolved: list[str] = Field(default_factory=list)
    tests_passed: bool | None = None  # the tests after merging someone's push in
    tokens: int = 0
    cost: ModelCost = Field(default_factory=ModelCost)


class CommentToJudge(BaseModel):
    """One review comment (untrusted text) and where it points."""

    id: int
    body: str
    path: str | None = None
    line: int | None = None


class JudgeCommentsInput(BaseModel):
    """Judge, for each comment, whether the round's changes address it."""

    repo: RepoRef
    key: str
    comments: list[CommentToJudge]
    changes: list[FileChange]


class CommentJudgement(BaseModel):
    """Whether one comment is addressed, and the short reply that says what changed or why not."""

    id: int
    addressed: bool
    reply: str


class JudgeCommentsResult(BaseModel):
    """The judgements; `judged` is False when the model's answer was unusable (fall back)."""

    judgements: list[CommentJudgement] = Field(default_factory=list)
    judged: bool = True
    reason: str = ""
    tokens: int = 0
    cost: ModelCost = Field(default_factory=ModelCost)
