"""Flaky CI is rerun, not fixed: a failure read as a flake reruns its Actions job (bounded per
head commit, said on the pull request, counted in the status) before any model call; anything
else gets its CI fix round."""

from collections.abc import Callable
from datetime import timedelta

from temporalio.testing import WorkflowEnvironment

from activities.review.messages import CiFailureReport, FailedJob
from integrations.github.ci_failures import Deterministic, Flake
from tests.support.notices import check_row
from tests.workflows.fakes import FakeActivities
from tests.workflows.test_ci_round_per_head import took_patch
from tests.workflows.test_review_phase import HEAD, following, merge
from tests.workflows.test_ticket_workflow import awaiting, running_ticket, wait_until
from workflows.review.messages import CheckInput, PullRequestChangeInput
from workflows.review.phase import CI_RERUNS
from workflows.ticket.messages import Status, TicketStatus
from workflows.ticket.workflow import TicketWorkflow

TIMED_OUT = Flake(reason="the job timed out")
NETWORK = Flake(reason="a network error", evidence="Could not resolve host: github.com")
FAILING = Deterministic(reason="tests failed", evidence="FAILED tests/test_ops.py::test_power")


def check(name: str, job: int, sha: str = HEAD, conclusion: str = "failure") -> CheckInput:
    """A job's check run (its id the job's) that completed on `sha`."""
    return CheckInput(
        source="check_run", name=name, head_sha=sha, conclusion=conclusion, check_run_id=job
    )


def report(job: int, verdict: Flake | Deterministic, name: str = "tests") -> CiFailureReport:
    return CiFailureReport(
        text=f"`{name}` failed.", verdict=verdict,
        jobs=[FailedJob(id=job, name=name, run_id=7, verdict=verdict)],
    )  # fmt: skip


def settled(reruns: int, ci: int = 0) -> Callable[[TicketStatus], bool]:
    """The status once the ticket asked for `reruns` reruns and did `ci` fix rounds, waiting."""

    def done(s: TicketStatus) -> bool:
        view = s.pull_request
        counted = view is not None and (view.ci_reruns, view.ci_rounds) == (reruns, ci)
        finished = view is not None and all(r.outcome for r in view.rounds)
        return counted and finished and s.status == Status.AWAITING_REVIEW

    return done


async def failed_once(
    env: WorkflowEnvironment, fakes: FakeActivities, key: str,
    until: Callable[[TicketStatus], bool],
) -> TicketStatus:  # fmt: skip
    """A ticket whose job 41 (`tests`) fails once on its head: its status once `until` holds
    (the pull request is merged after)."""
    async with running_ticket(env, fakes, following(key)) as handle:
        await wait_until(handle, awaiting(Status.AWAITING_REVIEW))
        await handle.signal(TicketWorkflow.check_completed, check("tests", 41))
        status = await wait_until(handle, until)
        await merge(handle)
    return status


async def test_a_flaky_job_is_rerun_and_its_green_rerun_needs_no_fix(
    time_skipping_env: WorkflowEnvironment,
) -> None:
    fakes = FakeActivities()
    fakes.ci_reports["tests"] = [report(41, NETWORK)]
    async with running_ticket(time_skipping_env, fakes, following("RR-1")) as handle:
        await wait_until(handle, awaiting(Status.AWAITING_REVIEW))
        await handle.signal(TicketWorkflow.check_completed, check("tests", 41))
        rerun = await wait_until(handle, settled(reruns=1))
        await handle.signal(
            TicketWorkflow.check_completed, check("tests", 51, conclusion="success")
        )
        await merge(handle)

    assert [(r.job_id, r.head_sha) for r in fakes.calls["rerun_ci_job"]] == [(41, HEAD)]
    assert not fakes.calls["revise_pull_request"] and not fakes.calls["update_from_base"]
    view = rerun.pull_request
    assert view is not None and view.ci_rounds == 0
    assert [(r.kind, r.trigger, r.outcome) for r in view.rounds] == [
        ("rerun", "`tests`: a network error", f"rerun 1 of 3 on {HEAD}")
    ]
    [said] = [c.body for c in fakes.calls["comment_on_pull_request"]]
    assert said.startswith(f"**CI rerun 1 of 3** on {HEAD}.")
    assert "- `tests`: a network error (the log says: `Could not resolve host: github.com`)" in said
    check_row("CI rerun", **fakes.said())


async def test_a_job_still_failing_after_its_reruns_on_a_commit_gets_a_fix_round(
    time_skipping_env: WorkflowEnvironment,
) -> None:
    fakes = FakeActivities()
    fakes.ci_reports["tests"] = [report(41, TIMED_OUT), report(42, TIMED_OUT),
                                 report(43, TIMED_OUT), report(61, TIMED_OUT)]  # fmt: skip
    inp = following("RR-2", ci_reruns_per_commit=2)
    async with running_ticket(time_skipping_env, fakes, inp) as handle:
        await wait_until(handle, awaiting(Status.AWAITING_REVIEW))
        for count, job in enumerate((41, 42), start=1):
            await handle.signal(TicketWorkflow.check_completed, check("tests", job))
            await wait_until(handle, settled(reruns=count))
        await handle.signal(TicketWorkflow.check_completed, check("tests", 43))
        fixed = await wait_until(handle, settled(reruns=2, ci=1))
        # The fix round's commit is a new head: its flaky job has reruns of its own again.
        new_head = fixed.pull_request.head_sha if fixed.pull_request else None
        assert new_head and new_head != HEAD
        await handle.signal(TicketWorkflow.check_completed, check("tests", 61, sha=new_head))
        again = await wait_until(handle, settled(reruns=3, ci=1))
        await merge(handle)

    assert [r.job_id for r in fakes.calls["rerun_ci_job"]] == [41, 42, 61]
    assert len(fakes.calls["revise_pull_request"]) == 1
    assert len(fakes.calls["read_ci_failure"]) == 4  # the fix round took what was read
    bodies = [c.body for c in fakes.calls["comment_on_pull_request"]]
    assert [b.split("**")[1] for b in bodies] == [
        "CI rerun 1 of 2", "CI rerun 2 of 2", "CI fix round 1.", "CI rerun 1 of 2"
    ]  # fmt: skip
    assert "`tests` looked flaky but failed again after 2 reruns on this commit" in bodies[2]
    assert again.pull_request is not None
    assert again.pull_request.rounds[-1].outcome == f"rerun 1 of 2 on {new_head[:7]}"
    check_row("CI reruns used up", **fakes.said())


async def test_a_failure_of_the_change_goes_to_its_fix_round(
    time_skipping_env: WorkflowEnvironment,
) -> None:
    fakes = FakeActivities()
    fakes.ci_reports["tests"] = [report(41, FAILING)]
    fixed = await failed_once(time_skipping_env, fakes, "RR-3", settled(reruns=0, ci=1))

    assert not fakes.calls["rerun_ci_job"]
    assert [c.name for c in fakes.calls["read_ci_failure"]] == ["tests"]  # read once, not twice
    assert len(fakes.calls["revise_pull_request"]) == 1
    assert fixed.pull_request is not None and fixed.pull_request.rounds[0].kind == "ci"


async def test_one_batch_with_a_failure_of_the_change_is_fixed_whole(
    time_skipping_env: WorkflowEnvironment,
) -> None:
    fakes = FakeActivities()
    fakes.ci_reports["tests"] = [report(41, FAILING)]
    fakes.ci_reports["lint"] = [report(42, NETWORK, name="lint")]
    inp = following("RR-4", batch_window=timedelta(seconds=5))
    async with running_ticket(time_skipping_env, fakes, inp) as handle:
        await wait_until(handle, awaiting(Status.AWAITING_REVIEW))
        await handle.signal(TicketWorkflow.check_completed, check("lint", 42))
        await handle.signal(TicketWorkflow.check_completed, check("tests", 41))
        fixed = await wait_until(handle, settled(reruns=0, ci=1))
        await merge(handle)

    assert not fakes.calls["rerun_ci_job"]
    assert fixed.pull_request is not None
    assert fixed.pull_request.rounds[0].trigger == "failed: lint, tests"


async def test_a_jobs_check_suite_and_run_make_one_rerun_and_late_news_none(
    time_skipping_env: WorkflowEnvironment,
) -> None:
    fakes = FakeActivities()
    fakes.ci_reports["tests"] = [report(41, TIMED_OUT)]
    fakes.ci_reports["CI"] = [report(41, TIMED_OUT), CiFailureReport(text="", superseded=True)]
    inp = following("RR-5", batch_window=timedelta(seconds=5))
    suite = CheckInput(
        source="check_suite", name="GitHub Actions", head_sha=HEAD, conclusion="failure"
    )
    run = CheckInput(
        source="workflow_run", name="CI", head_sha=HEAD, conclusion="cancelled", workflow_run_id=7
    )
    async with running_ticket(time_skipping_env, fakes, inp) as handle:
        await wait_until(handle, awaiting(Status.AWAITING_REVIEW))
        for failed in (check("tests", 41), suite, run):
            await handle.signal(TicketWorkflow.check_completed, failed)
        await wait_until(handle, settled(reruns=1))
        # The same run's report comes again, after its rerun was asked for: nothing to do.
        late = run.model_copy(update={"delivery_id": "late"})
        await handle.signal(TicketWorkflow.check_completed, late)
        await wait_until(handle, lambda s: len(fakes.calls["read_ci_failure"]) == 4)
        after = await wait_until(handle, settled(reruns=1))
        await merge(handle)

    assert [r.job_id for r in fakes.calls["rerun_ci_job"]] == [41]
    assert not fakes.calls["revise_pull_request"]
    read = [c.name for c in fakes.calls["read_ci_failure"]]
    assert sorted(read) == ["CI", "CI", "GitHub Actions", "tests"]
    assert after.pull_request is not None
    assert [r.kind for r in after.pull_request.rounds] == ["rerun"]


async def test_a_cancelled_job_is_work_once_reruns_are_in_force(
    time_skipping_env: WorkflowEnvironment,
) -> None:
    fakes = FakeActivities()
    fakes.ci_reports["tests"] = [report(41, Flake(reason="the job was cancelled"))]
    async with running_ticket(time_skipping_env, fakes, following("RR-6")) as handle:
        await wait_until(handle, awaiting(Status.AWAITING_REVIEW))
        await took_patch(handle, CI_RERUNS)
        push = PullRequestChangeInput(action="synchronize", head_sha="human1", sender="frank")
        await handle.signal(TicketWorkflow.pull_request_changed, push)
        await handle.signal(
            TicketWorkflow.check_completed, check("tests", 41, sha="human1", conclusion="cancelled")
        )
        await wait_until(handle, settled(reruns=1))
        await merge(handle)

    assert [(r.job_id, r.head_sha) for r in fakes.calls["rerun_ci_job"]] == [(41, "human1")]


async def test_a_rerun_github_refuses_falls_back_to_the_fix_round(
    time_skipping_env: WorkflowEnvironment,
) -> None:
    fakes = FakeActivities()
    fakes.rerun_refused = "Resource not accessible by integration"
    fakes.ci_reports["tests"] = [report(41, NETWORK)]
    fixed = await failed_once(time_skipping_env, fakes, "RR-7", settled(reruns=1, ci=1))

    assert fixed.pull_request is not None
    assert [(r.kind, r.outcome) for r in fixed.pull_request.rounds][0] == (
        "rerun", "refused: Resource not accessible by integration"
    )  # fmt: skip
    [said] = [c.body for c in fakes.calls["comment_on_pull_request"]]
    assert said.startswith("**CI fix round 1.**") and "GitHub refused to run it again" in said
    assert len(fakes.calls["read_ci_failure"]) == 1 and len(fakes.calls["revise_pull_request"]) == 1
    check_row("CI rerun refused", **fakes.said())
