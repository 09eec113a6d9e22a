"""The triage of one batch of CI failures: what is rerun, what is fixed, what is old news."""

from activities.review.messages import CiFailureReport, FailedJob
from integrations.github.ci_failures import Deterministic, Flake
from workflows.review.messages import CheckInput
from workflows.review.reruns import CiReruns, CiTriage

FLAKE = Flake(reason="the job timed out")


def failure(name: str, source: str = "check_run") -> CheckInput:
    return CheckInput(source=source, name=name, head_sha="abc", conclusion="failure")


def flaky(*jobs: int) -> CiFailureReport:
    """A report whose Actions jobs (each attempt of `tests` has an id of its own) are flaky."""
    found = [FailedJob(id=j, name="tests", run_id=7, verdict=FLAKE) for j in jobs]
    return CiFailureReport(text="", verdict=FLAKE, jobs=found)


def test_a_flaky_check_run_and_its_workflow_run_rerun_the_job_once() -> None:
    triage = CiReruns(3).triage(
        [failure("tests"), failure("GitHub Actions", "check_suite"), failure("CI", "workflow_run")],
        [flaky(41), CiFailureReport(text=""), flaky(41)],
    )
    assert [job.id for job in triage.rerun] == [41] and len(triage.fix) == 3  # fix: if refused


def test_a_flake_that_cannot_be_rerun_is_fixed() -> None:
    status = CiFailureReport(text="", verdict=FLAKE)  # no Actions job behind it
    triage = CiReruns(3).triage([failure("ci/jenkins", "status")], [status])
    assert not triage.rerun and [f.name for f in triage.fix] == ["ci/jenkins"]


def test_a_check_suite_alone_is_fixed_as_before() -> None:
    triage = CiReruns(3).triage([failure("CI app", "check_suite")], [CiFailureReport(text="")])
    assert [f.name for f in triage.fix] == ["CI app"]


def test_a_check_suite_whose_runs_went_on_waits_for_them() -> None:
    gone = CiFailureReport(text="", superseded=True)
    triage = CiReruns(3).triage(
        [failure("tests"), failure("GitHub Actions", "check_suite")],
        [gone, CiFailureReport(text="")],
    )
    assert not triage.rerun and not triage.fix


def test_reruns_are_bounded_per_commit_and_job_and_zero_switches_them_off() -> None:
    reruns = CiReruns(1)
    first = reruns.triage([failure("tests")], [flaky(41)])
    assert [job.id for job in first.rerun] == [41] and reruns.asked("abc", first.rerun) == 1
    assert reruns.triage([failure("tests")], [flaky(41)]) == CiTriage()  # asked for already
    again = reruns.triage([failure("tests")], [flaky(42)])  # the rerun failed as well
    assert not again.rerun and again.used_up == ["tests"]
    assert [f.name for f in again.fix] == ["tests"] and again.reports[0].jobs[0].id == 42
    off = CiReruns(0).triage([failure("tests")], [flaky(41)])
    assert not off.rerun and off.used_up == [] and [f.name for f in off.fix] == ["tests"]


def test_a_deterministic_job_beside_a_flaky_one_fixes_both() -> None:
    mixed = flaky(41)
    wrong = Deterministic(reason="tests failed")
    mixed.jobs.append(FailedJob(id=42, name="lint", run_id=7, verdict=wrong))
    triage = CiReruns(3).triage([failure("CI", "workflow_run")], [mixed])
    assert not triage.rerun and [f.name for f in triage.fix] == ["CI"]
