"""What one CI failure says, read once: the report a fix round quotes, and the verdict on each
Actions job behind it (a flake to rerun, or the change's failure), before any model call."""

from temporalio.exceptions import ApplicationError

from activities.review.messages import CiFailureReport, FailedJob, ReadCiFailureInput
from integrations.github.actions import FAILED, ActionsJob
from integrations.github.ci_failures import Deterministic, Flake, classify
from integrations.github.job_logs import failure_excerpt
from integrations.github.pulls import PullRequestClient

REPORT_LIMIT = 8_000
ACTIONS_APP = "github-actions"  # the app of the check run Actions makes for each job


async def read_failure(github: PullRequestClient, inp: ReadCiFailureInput) -> CiFailureReport:
    """The failure's details and verdicts: a check run's output and annotations (an Actions
    job's log too), or an Actions run's failed jobs with each one's log."""
    parts = [f"`{inp.name}` failed." + (f" {inp.description}" if inp.description else "")]
    verdict: Flake | Deterministic | None = None
    jobs: list[FailedJob] = []
    superseded = False
    if inp.check_run_id is not None:
        check = await github.check_run(inp.repository, inp.check_run_id)
        parts.append(check.text)
        if check.app == ACTIONS_APP:
            job = await github.actions_job(inp.repository, inp.check_run_id)
            superseded = await moved_on(github, inp.repository, job)
            if not superseded:
                log = await _log(github, inp.repository, job.id)
                jobs.append(_failed(job, classify(job.conclusion, log, check.annotations)))
        else:
            verdict = classify(check.conclusion, check.text, check.annotations)
    if inp.workflow_run_id is not None:
        run = await github.workflow_run(inp.repository, inp.workflow_run_id)
        # A run no longer completed has a newer attempt going; one that passed, a green one.
        superseded = run.status != "completed" or run.conclusion == "success"
        if not superseded:
            failed = await _failed_jobs(github, inp.repository, inp.workflow_run_id, parts)
            jobs += failed
    if inp.details_url:
        parts.append(f"Details: {inp.details_url}")
    if jobs:
        verdict = next((j.verdict for j in jobs if j.verdict.kind != "flake"), jobs[0].verdict)
    text = "\n\n".join(parts)
    return CiFailureReport(
        text=text[-REPORT_LIMIT:], verdict=verdict, jobs=jobs, superseded=superseded
    )


async def _failed_jobs(
    github: PullRequestClient, repository: str, run_id: int, parts: list[str]
) -> list[FailedJob]:
    """The failed jobs of a run's latest attempt, each with the end of its log in `parts`."""
    failed = []
    for job in await github.run_jobs(repository, run_id):
        if job.conclusion not in FAILED:
            continue
        log = await _log(github, repository, job.id)
        parts.append(f"Job `{job.name}` failed at: {', '.join(job.failed_steps) or 'unknown step'}")
        parts.append(f"Its log, up to the failure:\n{failure_excerpt(log)}")
        failed.append(_failed(job, classify(job.conclusion, log)))
    if not failed:
        parts.append(f"Workflow run {run_id} failed; no failed job was found.")
    return failed


async def moved_on(github: PullRequestClient, repository: str, job: ActionsJob) -> bool:
    """Whether the job's run went on past it: an attempt after the job's (a rerun asked for
    since), or one still running (its own report, once it ends, is the one to act on)."""
    run = await github.workflow_run(repository, job.run_id)
    return run.run_attempt > job.run_attempt or run.status != "completed"


async def _log(github: PullRequestClient, repository: str, job_id: int) -> str:
    """A job's log, or "" when it has none (a job cancelled before it started, an old one)."""
    try:
        return await github.job_log(repository, job_id)
    except ApplicationError as err:
        if err.type in ("GitHubNotFound", "GitHubGone"):
            return ""
        raise


def _failed(job: ActionsJob, verdict: Flake | Deterministic) -> FailedJob:
    return FailedJob(id=job.id, name=job.name, run_id=job.run_id, verdict=verdict)
