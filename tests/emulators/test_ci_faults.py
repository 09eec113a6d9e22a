"""The emulated GitHub Actions told to fail jobs as flaky runs do, once or N times, over real
HTTP and the real git CLI: the job fails without running the tests, each rerun of it (a new
attempt, counted at once) takes the next fault, and with none left the tests run for real."""

from collections.abc import Iterator
from pathlib import Path
from typing import get_args

import httpx
import pytest

from emulators.github.ci_actions import job_log
from emulators.github.ci_faults import CiFault, FaultKind, faulted
from integrations.github.ci_failures import Flake, classify
from tests.contracts.github.test_emulator_webhooks import REPO
from tests.support.actions_ci import ServedActions, served_actions

FAULTS = "/_emulator/github/ci/faults"


@pytest.fixture
def emulator(tmp_path: Path) -> Iterator[ServedActions]:
    with served_actions(tmp_path) as served:
        yield served


def test_a_job_fails_as_told_then_its_reruns_take_the_faults_left(emulator: ServedActions) -> None:
    http = emulator.http
    told = http.post(FAULTS, json={"kind": "network", "times": 2, "repository": "demo/calc"})
    assert told.status_code == 201, told.text
    sha = emulator.push()

    first = emulator.run_of(sha, 1)
    job = emulator.job_of(first)
    steps = {s["name"]: s["conclusion"] for s in job["steps"]}
    signed = http.get(f"{REPO}/actions/jobs/{job['id']}/logs").headers["location"]
    log = httpx.get(signed).text  # the signed URL takes no token
    notes = http.get(f"{REPO}/check-runs/{job['id']}/annotations").json()
    assert (first["conclusion"], job["conclusion"]) == ("failure", "failure")
    assert steps == {"Set up job": "success", "Run actions/checkout@v4": "failure",
                     "Run python -m pytest -q": "skipped", "Complete job": "success"}  # fmt: skip
    assert "Could not resolve host: github.com" in log and "python -m pytest" not in log
    assert [n["message"] for n in notes] == ["The process '/usr/bin/git' failed with exit code 128"]
    assert emulator.tested == []  # the tests never ran

    rerun = http.post(f"{REPO}/actions/jobs/{job['id']}/rerun")
    queued = http.get(f"{REPO}/actions/runs/{first['id']}").json()
    again = http.post(f"{REPO}/actions/jobs/{job['id']}/rerun")
    assert (rerun.status_code, rerun.json()) == (201, {})
    assert queued["run_attempt"] == 2 and queued["status"] != "completed"  # counted at once
    assert again.status_code == 403, again.text  # a run that is not complete has no rerun

    second = emulator.run_of(sha, 2)
    assert second["conclusion"] == "failure" and emulator.tested == []
    later = emulator.job_of(second)
    assert later["id"] != job["id"] and later["run_attempt"] == 2
    assert http.post(f"{REPO}/actions/jobs/{later['id']}/rerun").status_code == 201
    third = emulator.run_of(sha, 3)
    assert third["conclusion"] == "success" and emulator.tested == [sha]
    stale = http.post(f"{REPO}/actions/jobs/{job['id']}/rerun")
    assert stale.status_code == 403 and "latest attempt" in stale.json()["message"]
    assert [f["times"] for f in http.get(FAULTS).json()] == [0]


def test_a_fault_hits_only_the_repository_and_commits_it_names(emulator: ServedActions) -> None:
    http = emulator.http
    for fault in ({"kind": "timed_out", "message": "^Flaky"},
                  {"kind": "cancelled", "repository": "demo/sizes"}):  # fmt: skip
        assert http.post(FAULTS, json=fault).status_code == 201
    sha = emulator.push()  # "Name it Y", to demo/calc
    run = emulator.run_of(sha, 1)
    assert run["conclusion"] == "success" and emulator.tested == [sha]
    assert [f["times"] for f in http.get(FAULTS).json()] == [1, 1]
    assert http.post(FAULTS, json={"message": "(unclosed"}).status_code == 400
    assert http.post(FAULTS, json={"kind": "slow"}).status_code == 400
    assert http.delete(FAULTS).status_code == 204 and http.get(FAULTS).json() == []


@pytest.mark.parametrize("kind", get_args(FaultKind))
def test_every_fault_reads_as_a_flake(kind: str) -> None:
    outcome = faulted(CiFault(kind=kind), "demo/calc")
    log = job_log("abc1234", "python -m pytest -q", outcome)
    verdict = classify(outcome.conclusion, log, [outcome.error])
    assert isinstance(verdict, Flake), (kind, verdict)
