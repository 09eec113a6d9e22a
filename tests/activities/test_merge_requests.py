"""The review phase's activities on a GitLab project, against the GitLab emulator over real
HTTP: a failed pipeline read and its jobs classified, a flaky job retried once however often
the activity is retried, notes and discussion replies posted once."""

from collections.abc import Iterator
from pathlib import Path

import pytest
from temporalio.testing import ActivityEnvironment

from activities.review.merge_requests import job_verdict
from activities.review.messages import (
    PullRequestCommentInput,
    ReadCiFailureInput,
    RerunJobInput,
    ReviewReplyInput,
)
from activities.review.pull_requests import PullRequestActivities
from integrations.github.pulls import PullRequestClient
from integrations.gitlab.client import GitLabClient, Job
from tests.emulators.gitlab_served import CAROL, PROJECT, Served, served

REPOSITORY = "demo-gl/calc"
FAILING = "FAILED tests/test_ops.py::test_power - assert 6 == 8\n1 failed, 4 passed in 0.1s"


def activities(emulator: Served) -> PullRequestActivities:
    github = PullRequestClient(f"{emulator.url}/api/v3", "unused")
    gitlab = GitLabClient(f"{emulator.url}/api/v4", "bot-token")
    return PullRequestActivities(github, gitlab, on_gitlab=lambda r: r == REPOSITORY)


@pytest.fixture
def flaky(tmp_path: Path) -> Iterator[tuple[Served, str, int]]:
    """A merge request whose pushed commit's job failed on the network: sha, pipeline id."""
    with served(tmp_path, ci=True, real_tests=False) as emulator:
        told = emulator.http.post("/_emulator/gitlab/ci/faults", json={"kind": "network"})
        assert told.status_code == 201, told.text
        emulator.open_mr()
        _, sha = emulator.push_as_carol()
        yield emulator, sha, emulator.finished_pipeline(sha, "failed")["id"]


async def test_a_network_failure_reads_as_a_flake_and_is_retried_once(
    flaky: tuple[Served, str, int],
) -> None:
    emulator, sha, pipeline = flaky
    env, acts = ActivityEnvironment(), activities(emulator)
    report = await env.run(
        acts.read_ci_failure,
        ReadCiFailureInput(repository=REPOSITORY, name="pipeline", pipeline_id=pipeline),
    )
    assert [(j.name, j.run_id) for j in report.jobs] == [("test", pipeline)]
    verdict = report.jobs[0].verdict
    assert (verdict.kind, verdict.reason) == ("flake", "a network error")
    assert "Could not resolve host: gitlab.example.com" in verdict.evidence
    assert report.verdict == verdict and not report.superseded
    assert f"/-/pipelines/{pipeline}" in report.text  # where a person reads more

    job = report.jobs[0].id
    other = await env.run(acts.rerun_ci_job, RerunJobInput(repository=REPOSITORY, job_id=job,
                                                            head_sha="f" * 40))  # fmt: skip
    assert other.requested is False  # not the commit the retry was meant for
    inp = RerunJobInput(repository=REPOSITORY, job_id=job, head_sha=sha)
    first = await env.run(acts.rerun_ci_job, inp)
    again = await env.run(acts.rerun_ci_job, inp)  # the activity retried: no second retry
    assert (first.requested, first.already) == (True, False)
    assert (again.requested, again.already) == (True, True)
    emulator.finished_pipeline(sha, "success")
    jobs = emulator.http.get(f"{PROJECT}/pipelines/{pipeline}/jobs",
                             params={"include_retried": "true"}).json()  # fmt: skip
    assert sorted(j["status"] for j in jobs) == ["failed", "success"]
    # The pipeline passed since: the old failure is superseded.
    late = await env.run(
        acts.read_ci_failure,
        ReadCiFailureInput(repository=REPOSITORY, name="pipeline", pipeline_id=pipeline),
    )
    assert late.superseded and late.jobs == []


async def test_a_failing_test_reads_as_the_change_s_failure(tmp_path: Path) -> None:
    with served(tmp_path, ci=True, real_tests=False, output=FAILING) as emulator:
        emulator.open_mr()
        _, sha = emulator.push_as_carol()
        pipeline = emulator.finished_pipeline(sha, "failed")["id"]
        report = await ActivityEnvironment().run(
            activities(emulator).read_ci_failure,
            ReadCiFailureInput(repository=REPOSITORY, name="pipeline", pipeline_id=pipeline),
        )
    assert report.verdict is not None and report.verdict.kind == "deterministic"
    assert report.verdict.evidence.startswith("FAILED tests/test_ops.py::test_power")
    assert "Job `test` failed (script_failure)." in report.text and FAILING in report.text


async def test_notes_and_discussion_replies_land_once(tmp_path: Path) -> None:
    with served(tmp_path) as emulator:
        mr = emulator.open_mr()
        iid = mr["iid"]
        position = {"position_type": "text", "base_sha": mr["sha"], "start_sha": mr["sha"],
                    "head_sha": mr["sha"], "new_path": "calc/extra.py",
                    "old_path": "calc/extra.py", "new_line": 1}  # fmt: skip
        started = emulator.http.post(
            f"{PROJECT}/merge_requests/{iid}/discussions",
            json={"body": "Name it better.", "position": position}, headers=CAROL,
        )  # fmt: skip
        discussion = started.json()
        env, acts = ActivityEnvironment(), activities(emulator)
        note = PullRequestCommentInput(repository=REPOSITORY, number=iid, body="Round 1 done.",
                                       marker="round-1")  # fmt: skip
        posted = await env.run(acts.comment_on_pull_request, note)
        again = await env.run(acts.comment_on_pull_request, note)
        reply = ReviewReplyInput(
            repository=REPOSITORY, number=iid, comment_id=discussion["notes"][0]["id"],
            body="Renamed.", marker="reply-1", discussion_id=discussion["id"],
        )  # fmt: skip
        replied = await env.run(acts.reply_to_review_comment, reply)
        replied_again = await env.run(acts.reply_to_review_comment, reply)
        threads = emulator.http.get(f"{PROJECT}/merge_requests/{iid}/discussions").json()
    assert (again.comment_id, again.already_posted) == (posted.comment_id, True)
    assert (replied_again.comment_id, replied_again.already_posted) == (replied.comment_id, True)
    notes = next(t["notes"] for t in threads if t["id"] == discussion["id"])
    assert [n["author"]["username"] for n in notes] == ["carol", "ticketsmith-bot"]
    assert notes[1]["body"].startswith("Renamed.") and "reply-1" in notes[1]["body"]
    plain = [t for t in threads if t["individual_note"]]
    assert [t["notes"][0]["body"].split("\n")[0] for t in plain] == ["Round 1 done."]


@pytest.mark.parametrize(
    ("status", "reason", "verdict"),
    [
        ("canceled", None, "the job was cancelled"),
        ("failed", "job_execution_timeout", "the job timed out"),
        ("failed", "runner_system_failure", "the runner failed"),
    ],
)
def test_gitlab_s_own_failure_reasons_are_flakes_without_reading_the_log(
    status: str, reason: str | None, verdict: str
) -> None:
    job = Job(id=1, name="test", status=status, failure_reason=reason, pipeline_id=2, sha="a")
    found = job_verdict(job, "FAILED tests/test_x.py::test_y")
    assert (found.kind, found.reason) == ("flake", verdict)
