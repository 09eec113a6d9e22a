"""`make demo` as a person runs it: `python -m embedded demo` in a process of its own."""

import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from config import ROOT
from harness.processes import clean_env, free_port

pytestmark = pytest.mark.e2e
PHASE_ROW = re.compile(
    r"^(refinement|planning|implementation|review)\s+[\d.]+s\s+[\d.]+s(\s+[\d,]+){3}\s+\$0\.00$"
)


def demo_env(data: Path, **ports: int) -> dict[str, str]:
    """The environment of a demo on its own ports and data directory, offline."""
    projects = data / "projects.toml"
    projects.write_text(
        '[projects.DEMO]\nrepository = "demo/calc"\nimplement_after_approval = true\n'
        '[projects.CALC]\nrepository = "demo/calc"\ntracker = "github"\n'
        "implement_after_approval = true\n"
    )
    names = ("temporal_ui", "webhook", "emulator", "metrics", "codec", "local_model")
    env = {
        f"TICKETSMITH_{name.upper()}_PORT": str(ports.get(name) or free_port()) for name in names
    }
    return clean_env(
        **env,
        TICKETSMITH_TEMPORAL_ADDRESS=f"127.0.0.1:{free_port()}",
        TICKETSMITH_DATA_DIR=str(data),
        TICKETSMITH_PROJECTS_FILE=str(projects),
        TICKETSMITH_MODEL_PROVIDER="offline",
    )


def run_demo(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "embedded", "demo", *args],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip


def test_the_demo_prints_the_pull_request_and_time_and_tokens_per_phase(tmp_path: Path) -> None:
    started = time.monotonic()
    done = run_demo(demo_env(tmp_path))
    took = time.monotonic() - started
    assert done.returncode == 0, done.stderr[-3000:]
    out = done.stdout
    headings = ("start", "questions", "answer", "plan v1", "approve", "review", "merge", "result")
    for heading in headings:
        assert f"=== {heading}" in out
    assert "Carol requests changes on calc/operations.py" in out
    assert re.search(r"Review round 1: (no change|pushed [0-9a-f]{7})", out)
    assert "ticketsmith-bot replied in the thread:" in out
    assert re.search(r"Merged demo/calc#\d+ \([0-9a-f]{7}\)", out)
    assert "Jira says DEMO-1 is Done" in out
    # No secret was set: the demo's stack made one, and its deliveries were signed with it.
    secret = tmp_path / "webhook-secret"
    assert secret.stat().st_mode & 0o777 == 0o600 and len(secret.read_text().strip()) == 64
    assert f"Webhook secret  {secret} (made by the stack" in out
    assert "DEMO-1 merged: Pull request" in out
    # The offline model writes no code and reviews none, so the pull request is a draft.
    pull = r"Pull request: http://127\.0\.0\.1:\d+/demo/calc/pull/\d+ \(a draft: "
    assert re.search(pull, out)
    assert "(the emulator serves it: HTTP 200)" in out
    progress = [line for line in out.splitlines() if line.startswith("DEMO-1 ")]
    assert progress[0].startswith("DEMO-1 refinement/running | doing: Reading the ticket | step: ")
    assert any(
        line.startswith("DEMO-1 refinement/awaiting_answers | waiting: ") for line in progress
    )
    # The implementation's own progress; polled, so a fast revision may pass between two reads.
    assert any(re.search(r" \| revision: [1-9]\d* of 15: ", line) for line in progress), out
    after = out.split("=== time, model tokens and cost per phase ===", 1)[1].strip().splitlines()
    table = [line for line in after if set(line.strip()) != {"─"}]
    # The offline model is free: every phase's cost is known, and nothing.
    assert table[0].split() == ["phase", "working", "waiting", "tokens", "in", "out", "cost"]
    phases = [row.split()[0] for row in table[1:5]]
    assert phases == ["refinement", "planning", "implementation", "review"]
    assert all(PHASE_ROW.match(row) for row in table[1:5]), table
    total = table[5].split()
    assert total[0] == "total"
    assert 0 < float(total[1].rstrip("s")) + float(total[2].rstrip("s")) < took


def test_the_github_issues_demo_runs_from_the_label_to_the_closed_issue(tmp_path: Path) -> None:
    done = run_demo(demo_env(tmp_path), "--tracker", "github")
    assert done.returncode == 0, done.stderr[-3000:]
    out = done.stdout
    assert "Dave opened demo/calc#1: Add a power operation to the calculator" in out
    headings = ("questions, as an issue comment", "Carol answers in a comment", "plan v1")
    for heading in (*headings, "Dave approves in a comment", "merge", "result"):
        assert f"=== {heading}" in out, out
    assert "CALC-1 merged: Pull request" in out
    assert "demo/calc#1 is closed (completed)" in out


def test_a_taken_port_is_one_clear_line_and_exit_code_1(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = run_demo(demo_env(tmp_path, webhook=port))
    assert done.returncode == 1
    assert done.stderr.startswith(f"error: webhooks port {port} already in use")
    assert "Traceback" not in done.stderr
