"""The review phase on GitLab: a merge request's notes and discussion replies posted once, a
failed pipeline's jobs read and classified before any model call, a flaky job retried once."""

from temporalio.exceptions import ApplicationError

from activities.review.messages import (
    CiFailureReport,
    FailedJob,
    PostedComment,
    PullRequestCommentInput,
    ReadCiFailureInput,
    RerunJobInput,
    RerunJobResult,
    ReviewReplyInput,
)
from activities.tracker import marker_line
from integrations.github.ci_failures import Deterministic, Flake, classify
from integrations.github.job_logs import failure_excerpt
from integrations.gitlab.client import GitLabClient, Job

REPORT_LIMIT = 8_000
FINISHED_FAILED = {"failed", "canceled"}  # a pipeline in any other state is not done failing
# GitLab's failure reasons that say the job ran out of time, or that the runner failed it.
TIMED_OUT = {"job_execution_timeout", "stuck_or_timeout_failure"}
RUNNER_FAILED = {
    "runner_system_failure", "api_failure", "scheduler_failure", "data_integrity_failure",
    "runner_unsupported", "stale_schedule", "unknown_failure",
}  # fmt: skip


def job_verdict(job: Job, trace: str) -> Flake | Deterministic:
    """A failed job's verdict from GitLab's status and failure reason, then its log."""
    if job.status == "canceled":
        return classify("cancelled", trace)
    if job.failure_reason in TIMED_OUT:
        return classify("timed_out", trace)
    if job.failure_reason in RUNNER_FAILED:
        return Flake(reason="the runner failed", evidence=job.failure_reason or "")
    return classify("failure", trace)


async def read_pipeline_failure(gitlab: GitLabClient, inp: ReadCiFailureInput) -> CiFailureReport:
    """A failed pipeline's failed jobs, each with the end of its log and its verdict; a
    pipeline running again (a retry) or passed since is superseded."""
    assert inp.pipeline_id is not None
    parts = [f"`{inp.name}` failed." + (f" {inp.description}" if inp.description else "")]
    pipeline = await gitlab.pipeline(inp.repository, inp.pipeline_id)
    jobs: list[FailedJob] = []
    superseded = pipeline.status not in FINISHED_FAILED
    if not superseded:
        for job in await gitlab.pipeline_jobs(inp.repository, pipeline.id):
            if job.status not in FINISHED_FAILED or job.allow_failure:
                continue
            trace = await gitlab.job_trace(inp.repository, job.id)
            reason = job.failure_reason or job.status
            parts.append(f"Job `{job.name}` {job.status} ({reason}).")
            parts.append(f"Its log, up to the failure:\n{failure_excerpt(trace)}")
            jobs.append(FailedJob(
                id=job.id, name=job.name, run_id=pipeline.id, verdict=job_verdict(job, trace)
            ))  # fmt: skip
        if not jobs:
            parts.append(f"Pipeline {pipeline.id} failed; no failed job was found.")
    parts.append(f"Details: {inp.details_url or pipeline.web_url}")
    verdicts = [j.verdict for j in jobs]
    verdict = next((v for v in verdicts if v.kind != "flake"), verdicts[0] if verdicts else None)
    text = "\n\n".join(parts)
    return CiFailureReport(
        text=text[-REPORT_LIMIT:], verdict=verdict, jobs=jobs, superseded=superseded
    )


async def retry_job(gitlab: GitLabClient, inp: RerunJobInput) -> RerunJobResult:
    """Retry one failed job of the head commit, once: a newer job of its name means a retry
    is under way already."""
    job = await gitlab.job(inp.repository, inp.job_id)
    if job.sha != inp.head_sha:
        return RerunJobResult(requested=False)
    if await _retried(gitlab, inp.repository, job):
        return RerunJobResult(requested=True, already=True)
    try:
        await gitlab.retry_job(inp.repository, inp.job_id)
    except ApplicationError as err:
        if err.type != "GitLabForbidden":
            raise
        details = err.details[0] if err.details and isinstance(err.details[0], dict) else {}
        return RerunJobResult(requested=False, refused=str(details.get("api_message", err)))
    return RerunJobResult(requested=True)


async def _retried(gitlab: GitLabClient, repository: str, job: Job) -> bool:
    jobs = await gitlab.pipeline_jobs(repository, job.pipeline_id, include_retried=True)
    return any(j.name == job.name and j.id > job.id for j in jobs)


async def note_once(gitlab: GitLabClient, inp: PullRequestCommentInput) -> PostedComment:
    """Note on the merge request once: a retry finds the note already there."""
    line = marker_line(inp.marker)
    if found := await _marked(gitlab, inp.repository, inp.number, line):
        return found
    note = await gitlab.add_note(inp.repository, inp.number, f"{inp.body}\n\n<sub>{line}</sub>")
    return PostedComment(comment_id=note)


async def reply_once(gitlab: GitLabClient, inp: ReviewReplyInput) -> PostedComment:
    """Reply in the comment's discussion once (a plain note when it has none)."""
    line = marker_line(inp.marker)
    if found := await _marked(gitlab, inp.repository, inp.number, line):
        return found
    body = f"{inp.body}\n\n<sub>{line}</sub>"
    if inp.discussion_id is None:
        return PostedComment(comment_id=await gitlab.add_note(inp.repository, inp.number, body))
    note = await gitlab.reply_in_discussion(inp.repository, inp.number, inp.discussion_id, body)
    return PostedComment(comment_id=note)


async def _marked(
    gitlab: GitLabClient, repository: str, iid: int, line: str
) -> PostedComment | None:
    for note in await gitlab.list_notes(repository, iid):
        if line in note.body:
            return PostedComment(comment_id=note.id, already_posted=True)
    return None
