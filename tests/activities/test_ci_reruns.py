"""What CI said, read and classified against the emulator over real HTTP, and the rerun of a
flaky job asked for once however often the activity is retried."""

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from temporalio.exceptions import ApplicationError
from temporalio.testing import ActivityEnvironment

from activities.review.messages import ReadCiFailureInput, RerunJobInput
from activities.review.pull_requests import PullRequestActivities
from integrations.github.pulls import PullRequestClient
from tests.contracts.github.test_emulator_webhooks import REPO
from tests.support.actions_ci import ServedActions, served_actions

FAILING = "FAILED tests/test_ops.py::test_power - assert 6 == 8\n1 failed, 4 passed in 0.1s"
RERUN = f"{REPO}/actions/jobs/\\d+/rerun"


@pytest.fixture
def emulator(tmp_path: Path) -> Iterator[ServedActions]:
    with served_actions(tmp_path) as served:
        yield served


@pytest.fixture
async def activities(emulator: ServedActions) -> AsyncIterator[PullRequestActivities]:
    async with PullRequestClient(f"{emulator.url}/api/v3", "bot-token") as github:
        yield PullRequestActivities(github)


def flaky_run(emulator: ServedActions, kind: str = "network") -> tuple[str, int, int]:
    """A pushed commit whose Actions job fails as told: its sha, run id and job id."""
    told = emulator.http.post("/_emulator/github/ci/faults", json={"kind": kind})
    assert told.status_code == 201, told.text
    sha = emulator.push()
    run = emulator.run_of(sha)
    return sha, run["id"], emulator.job_of(run)["id"]


async def test_a_flaky_jobs_check_run_and_workflow_run_read_as_a_flake(
    emulator: ServedActions, activities: PullRequestActivities
) -> None:
    sha, run_id, job_id = flaky_run(emulator)
    env = ActivityEnvironment()
    check = await env.run(
        activities.read_ci_failure,
        ReadCiFailureInput(repository="demo/calc", name="tests", check_run_id=job_id),
    )
    run = await env.run(
        activities.read_ci_failure,
        ReadCiFailureInput(repository="demo/calc", name="CI", workflow_run_id=run_id),
    )
    for report in (check, run):
        assert [(j.id, j.name, j.run_id) for j in report.jobs] == [(job_id, "tests", run_id)]
        verdict = report.jobs[0].verdict
        assert (verdict.kind, verdict.reason) == ("flake", "a network error")
        assert "Could not resolve host: github.com" in verdict.evidence
        assert report.verdict == verdict and not report.superseded
    assert "Could not resolve host" in run.text  # the job's log, for a fix round


async def test_a_failing_test_reads_as_the_changes_failure(tmp_path: Path) -> None:
    with served_actions(tmp_path, output=FAILING) as emulator:
        run = emulator.run_of(emulator.push())
        job_id = emulator.job_of(run)["id"]
        async with PullRequestClient(f"{emulator.url}/api/v3", "bot-token") as github:
            report = await ActivityEnvironment().run(
                PullRequestActivities(github).read_ci_failure,
                ReadCiFailureInput(repository="demo/calc", name="tests", check_run_id=job_id),
            )
    assert report.verdict is not None and report.verdict.kind == "deterministic"
    assert report.verdict.evidence.startswith("FAILED tests/test_ops.py::test_power")


async def test_a_rerun_whose_answer_was_lost_is_not_asked_for_twice(
    emulator: ServedActions, activities: PullRequestActivities
) -> None:
    sha, run_id, job_id = flaky_run(emulator)
    lost = {"path": RERUN, "method": "POST", "status_code": 502, "when": "after", "times": 1}
    assert emulator.http.post("/_emulator/faults", json=lost).status_code == 201
    emulator.http.delete("/_emulator/requests")
    env, inp = ActivityEnvironment(), RerunJobInput(repository="demo/calc", job_id=job_id,
                                                    head_sha=sha)  # fmt: skip
    with pytest.raises(ApplicationError) as first:  # GitHub took it; its answer never came
        await env.run(activities.rerun_ci_job, inp)
    retried = await env.run(activities.rerun_ci_job, inp)  # as Temporal retries it
    other = await env.run(activities.rerun_ci_job, inp.model_copy(update={"head_sha": "f00"}))
    rerun = emulator.run_of(sha, attempt=2)
    posted = [
        r for r in emulator.http.get("/_emulator/requests").json()
        if r["method"] == "POST" and r["path"].endswith("/rerun")
    ]  # fmt: skip

    assert not first.value.non_retryable and "502" in first.value.message
    assert (retried.requested, retried.already) == (True, True)
    assert (other.requested, other.already) == (False, False)
    assert len(posted) == 1 and rerun["run_attempt"] == 2
    assert emulator.run_of(sha, attempt=2)["conclusion"] == "success"  # no fault left


async def test_a_rerun_github_refuses_is_said_not_raised(
    emulator: ServedActions, activities: PullRequestActivities
) -> None:
    sha, _, job_id = flaky_run(emulator)
    refuse = {"path": RERUN, "method": "POST", "status_code": 403,
              "body": {"message": "Resource not accessible by integration"}}  # fmt: skip
    assert emulator.http.post("/_emulator/faults", json=refuse).status_code == 201
    inp = RerunJobInput(repository="demo/calc", job_id=job_id, head_sha=sha)
    refused = await ActivityEnvironment().run(activities.rerun_ci_job, inp)
    assert (refused.requested, refused.refused) == (False, "Resource not accessible by integration")
    assert emulator.http.get(f"{REPO}/actions/jobs/{job_id}").json()["run_attempt"] == 1


async def test_a_cancelled_job_without_a_log_reads_as_a_flake(
    emulator: ServedActions, activities: PullRequestActivities
) -> None:
    _, _, job_id = flaky_run(emulator, kind="cancelled")
    no_log = {"path": f"{REPO}/actions/jobs/\\d+/logs", "status_code": 404}
    assert emulator.http.post("/_emulator/faults", json=no_log).status_code == 201
    report = await ActivityEnvironment().run(
        activities.read_ci_failure,
        ReadCiFailureInput(repository="demo/calc", name="tests", check_run_id=job_id),
    )
    assert [(j.verdict.kind, j.verdict.reason) for j in report.jobs] == [
        ("flake", "the job was cancelled")
    ]
