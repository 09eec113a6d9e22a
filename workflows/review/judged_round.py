"""A review round whose answers come from a judgement of each comment against the round's change.

A comment asking for something ticketsmith never does is answered "not done" and left out of
the revision; a judgement that fails or does not parse falls back to the files changed.
"""

import asyncio
from collections.abc import Sequence
from typing import Any, Protocol

from temporalio import workflow
from temporalio.exceptions import ActivityError, is_cancelled_exception

with workflow.unsafe.imports_passed_through():
    from activities.messages import RepoRef
    from activities.review.messages import InlineComment
    from activities.review.round_messages import (
        CommentToJudge,
        CommitRoundResult,
        JudgeCommentsInput,
        JudgeCommentsResult,
    )
    from activities.review.rounds import RoundActivities
    from workflows.review import texts as review_texts
    from workflows.review.bounds import out_of_bounds
    from workflows.review.inbox import PullRequestInbox
    from workflows.review.messages import ReviewComment
    from workflows.review.scope import Verdicts, addressed_files, outside, without
    from workflows.ticket.messages import Implementation


class Rounds(Protocol):
    """What a judged round uses of the pull request's rounds (`workflows.review.rounds`)."""

    key: str
    repo: RepoRef
    inbox: PullRequestInbox
    last_push: CommitRoundResult | None
    held_back: str

    async def comment(self, step: str, body: str) -> None: ...
    async def reply(self, step: str, comment: ReviewComment, body: str) -> None: ...
    async def revise(
        self, kind: str, feedback: str, paths: list[str], comments: Sequence[InlineComment] = ()
    ) -> Implementation: ...
    async def run_tests(self, done: Implementation) -> Any: ...
    async def pushed_meanwhile(self, pushes: int, step: str) -> bool: ...
    async def commit_changes(self, done: Implementation, message: str) -> str | None: ...
    async def agent(self, activity: Any, arg: Any, summary: str) -> Any: ...


FALLBACK = "Review round %d: %s; replies fall back to the files changed"
# A round pushes only files a comment it addressed is about; one that addressed none pushes
# nothing, and each reply says what was left out and why.
HELD_TO_COMMENTS = "review-held-to-comments"
NOTHING_ADDRESSED = "not pushed: no comment was addressed"


def quoted_comments(comments: list[ReviewComment]) -> str:
    """The comments as the revision's feedback (quoted as untrusted data by the graph)."""
    return "\n\n".join(
        f"Comment {c.id} by {c.author}"
        + (f" on `{c.path}` line {c.line}" if c.path else "")
        + f":\n{c.body}"
        for c in comments
    )


async def judged_review_round(
    rounds: Rounds, number: int, comments: list[ReviewComment]
) -> tuple[str | None, list[str]]:
    """Revise for the comments it may act on, judge each, commit once, answer every one."""
    pushes = len(rounds.inbox.pushed_by_others)
    refused = {c.id: reason for c in comments if (reason := out_of_bounds(c.body))}
    acting = [c for c in comments if c.id not in refused]
    held = workflow.patched(HELD_TO_COMMENTS)
    done = Implementation(changes=[], notes="nothing was asked that ticketsmith may do")
    left_out: list[str] = []
    if acting:
        paths = list(dict.fromkeys(c.path for c in acting if c.path))
        inline = [InlineComment(path=c.path, line=c.line, body=c.body) for c in acting if c.path]
        done = await rounds.revise("review", quoted_comments(acting), paths, inline if held else [])
        if held:  # put back before the tests, the judgement and the push
            left_out = outside(done.changes, acting)
            done = done.model_copy(update={"changes": without(done.changes, left_out)})
        await rounds.run_tests(done)
    if await rounds.pushed_meanwhile(pushes, f"review-round-{number}"):
        rounds.inbox.requeue(comments)
        return None, []
    verdicts = await _judge(rounds, number, acting, done) if done.changes else {}
    if held and done.changes:
        kept = addressed_files(done.changes, acting, verdicts)
        done = done.model_copy(update={"changes": [c for c in done.changes if c.path in kept]})
        if not done.changes:
            rounds.held_back = NOTHING_ADDRESSED
    elif held and (left_out or done.left_out):
        rounds.held_back = f"not pushed: {review_texts.ONLY_ELSEWHERE}"
    sha = await rounds.commit_changes(done, f"{rounds.key}: address review (round {number})")
    push = rounds.last_push
    if sha is None and push is not None and push.unresolved:
        rounds.inbox.requeue(comments)  # answered by the round that starts from their commit
        return None, []
    files = [c.path for c in done.changes] if sha else []
    put_back = [f"`{p}`" for p in left_out] + done.left_out
    answers = {
        c.id: _answer(c, sha, files, done.notes, verdicts, refused, held, put_back)
        for c in comments
    }
    note = review_texts.left_out_note(put_back)
    replies = [
        rounds.reply(
            f"review-{number}-reply-{c.id}", c, answers[c.id] + ("" if c.id in refused else note)
        )
        for c in comments
        if c.path is not None
    ]
    await asyncio.gather(*replies)
    listed = "\n".join(f"- {answers[c.id]} (re: comment {c.id})" for c in comments)
    body = review_texts.judged_round_comment(number, sha, files, listed + note)
    if push is not None:
        body += review_texts.merged_note(push.merged_heads, push.tests_passed)
    await rounds.comment(f"review-round-{number}", body)
    return sha, files


def _answer(
    comment: ReviewComment, sha: str | None, files: list[str], notes: str, verdicts: Verdicts,
    refused: dict[int, str], held: bool, put_back: list[str],
) -> str:  # fmt: skip
    """One comment's answer; `held`: the round's change is held to what the comments it
    addressed are about (`put_back`: what the revision changed that no comment is about)."""
    if comment.id in refused:
        return review_texts.refused_reply(refused[comment.id])
    verdict = verdicts.get(comment.id)
    if held and verdict is not None and not verdict[0]:
        return review_texts.unaddressed_reply(verdict[1])
    if held and verdict is None and sha is None and put_back:
        return review_texts.unaddressed_reply(review_texts.ONLY_ELSEWHERE)
    fallback = review_texts.comment_reply(comment, sha, files, notes)
    return review_texts.judged_reply(comment, sha, verdicts.get(comment.id), fallback)


async def _judge(
    rounds: Rounds, number: int, comments: list[ReviewComment], done: Implementation
) -> Verdicts:
    """The model's verdict per comment; empty (the file-changed rule) when it has none."""
    judged = [CommentToJudge(id=c.id, body=c.body, path=c.path, line=c.line) for c in comments]
    inp = JudgeCommentsInput(repo=rounds.repo, key=rounds.key, comments=judged,
                             changes=done.changes)  # fmt: skip
    summary = f"Judge whether round {number} addresses each comment"
    try:
        result: JudgeCommentsResult = await rounds.agent(
            RoundActivities.judge_review_comments, inp, summary
        )
    except ActivityError as err:
        if is_cancelled_exception(err):
            raise
        workflow.logger.warning(FALLBACK, number, f"judging failed: {err}")
        return {}
    if not result.judged:
        workflow.logger.warning(FALLBACK, number, f"the answer did not parse: {result.reason}")
    return {j.id: (j.addressed, j.reply) for j in result.judgements}
