"""The judgement of a review round's comments; an unusable answer falls back, never fails."""

from langchain_core.language_models import BaseChatModel
from temporalio import activity

from activities.review.round_messages import (
    CommentJudgement,
    JudgeCommentsInput,
    JudgeCommentsResult,
)
from graphs.review.judging import NO_CHANGE, Judged, judge_comments, nearest_hunk
from integrations.git.client import GitWorkspace
from llm.structured import ModelAnswerError


async def judge_round(
    model: BaseChatModel, workspace: GitWorkspace, inp: JudgeCommentsInput
) -> JudgeCommentsResult:
    """Ask the model about every comment, against the branch head the changes apply to."""
    await workspace.sync(inp.repo.branch, inp.repo.base_branch)
    changed = {c.path: c for c in inp.changes}
    judged = []
    for comment in inp.comments:
        hunk = NO_CHANGE
        targets = [comment.path] if comment.path else list(changed)
        for path in targets:
            change = changed.get(path or "")
            if change is not None:
                old = workspace.root / change.path
                before = old.read_text(encoding="utf-8", errors="replace") if old.is_file() else ""
                after = "" if change.delete else change.content
                hunk = nearest_hunk(before, after, comment.line)
                break
        judged.append(Judged(**comment.model_dump(), hunk=hunk))
    try:
        verdicts, tokens = await judge_comments(model, inp.key, judged)
    except ModelAnswerError as err:
        activity.logger.warning("unusable judgement, falling back to changed files: %s", err)
        return JudgeCommentsResult(judged=False, reason=str(err)[:500])
    answers = [
        CommentJudgement(id=v.id, addressed=v.addressed, reply=v.reply.strip())
        for v in verdicts.values()
    ]
    return JudgeCommentsResult(judgements=answers, tokens=tokens)
