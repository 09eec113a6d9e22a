"""`starter.py research` against the embedded stack: tool server, worker, emulators, offline."""

import json
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from config import ROOT
from embedded.stack import Stack, child_env

pytestmark = pytest.mark.e2e
QUESTION = "What is blocking the payments migration?"
AGENT_STEPS = ("plan", "fetchTickets", "parseDocs", "readPdfs", "searchContext", "synthesis")


def research(stack: Stack, *args: str) -> subprocess.CompletedProcess[str]:
    """Run `starter.py research` as a person would."""
    return subprocess.run(
        [sys.executable, "starter.py", "research", *args],
        cwd=ROOT, env=child_env(stack.settings), capture_output=True, text=True, timeout=180,
    )  # fmt: skip


def test_prints_progress_per_agent_then_the_cited_report(stack: Stack) -> None:
    done = research(stack, QUESTION)
    assert done.returncode == 0, done.stderr
    for step in AGENT_STEPS:
        assert f"{step} (" in done.stderr and "started" in done.stderr, done.stderr
    assert done.stdout.startswith(f"# {QUESTION}")
    assert "[PAY-2]" in done.stdout and "p.2]" in done.stdout
    assert "Produced offline" in done.stdout  # the stack's model here is the offline one


def test_json_and_a_fault_profile_for_the_run(stack: Stack, tmp_path: Path) -> None:
    url = stack.settings.toolserver_url
    before = httpx.get(f"{url}/_faults").json()
    profile = tmp_path / "faults.json"
    profile.write_text(json.dumps({"seed": 5, "faults": [{"status_code": 500, "rate": 0.3}]}))
    done = research(stack, "Who owns the webhook consumer?", "--json", "--faults", str(profile))
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["status"] == "completed"
    assert out["report"]["sections"] and out["report"]["summary"]
    assert [s["step"] for s in out["steps"]] == list(AGENT_STEPS)
    assert httpx.get(f"{url}/_faults").json() == before
    metrics = httpx.get(f"{url}/metrics").text
    assert 'ticketsmith_toolserver_errors_total{kind="injected",status="500"' in metrics


def test_bad_input_is_one_clear_line(stack: Stack, tmp_path: Path) -> None:
    empty = research(stack, "   ")
    assert empty.returncode == 1 and empty.stderr.startswith("error: the question is empty")
    bad = tmp_path / "bad.json"
    bad.write_text('{"faults": [{"rate": 3}]}')
    refused = research(stack, QUESTION, "--faults", str(bad))
    assert refused.returncode == 1
    assert "faults.0.rate" in refused.stderr and refused.stderr.count("\n") == 1
