"""The command line against the running stack: auto mode, list, refusals and cancel."""

import asyncio
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from config import ROOT
from embedded.stack import Stack, child_env
from temporal.client import connect_temporal
from workflows.ticket.messages import Status, TicketStatus

pytestmark = pytest.mark.e2e


def starter(stack: Stack, *args: str) -> subprocess.CompletedProcess[str]:
    """Run `starter.py` as a person would."""
    return subprocess.run(
        [sys.executable, "starter.py", *args],
        cwd=ROOT,
        env=child_env(stack.settings),
        capture_output=True,
        text=True,
        timeout=60,
    )


async def wait_for(stack: Stack, key: str, wanted: Status) -> TicketStatus:
    """Poll the status query until the ticket reaches `wanted`."""
    client = await connect_temporal(stack.settings)
    handle = client.get_workflow_handle(f"ticket-{key}")
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        current = await handle.query("status", result_type=TicketStatus)
        if current.status == wanted:
            return current
        await asyncio.sleep(0.2)
    raise AssertionError(f"{key} never reached {wanted}: {current}")


async def test_auto_mode_list_and_restart_refusal(stack: Stack) -> None:
    started = starter(stack, "DEMO-2", "--auto")
    assert started.returncode == 0, started.stderr
    assert "started ticket-DEMO-2" in started.stdout and "/history" in started.stdout
    done = await wait_for(stack, "DEMO-2", Status.COMPLETED)
    assert done.pr_url and done.decisions == []

    again = starter(stack, "DEMO-2")
    assert again.returncode == 1
    assert again.stderr.strip() == (
        "error: ticket-DEMO-2 already ran and is completed; to work on DEMO-2 again, run: "
        "starter.py DEMO-2 --restart"
    )
    listed = starter(stack, "list", "--status", "completed")
    assert any(line.split()[0] == "DEMO-2" for line in listed.stdout.splitlines()[1:])
    status = starter(stack, "status", "DEMO-2")
    assert "done / completed" in status.stdout and done.pr_url in status.stdout


async def test_refusal_then_cancel_with_compensation(stack: Stack) -> None:
    assert starter(stack, "DEMO-1", "--restart").returncode == 0
    attached = starter(stack, "DEMO-1")
    assert "already being worked on; attached" in attached.stdout
    waiting = await wait_for(stack, "DEMO-1", Status.AWAITING_ANSWERS)

    refused = starter(stack, "approve", "DEMO-1")
    assert refused.returncode == 1
    assert refused.stderr.count("\n") == 1  # one line, no traceback
    assert "not waiting for an approval: it is waiting for answers" in refused.stderr

    cancelled = starter(stack, "cancel", "DEMO-1")
    assert cancelled.returncode == 0, cancelled.stderr
    assert "DEMO-1 cancelled" in cancelled.stdout
    async with httpx.AsyncClient(base_url=stack.settings.jira_base_url) as http:
        comments = (await http.get("/rest/api/3/issue/DEMO-1/comment")).json()["comments"]
    last = str(comments[-1]["body"])
    assert "cancelled" in last and str(waiting.branch) in last


async def test_status_without_a_worker(stack: Stack) -> None:
    assert starter(stack, "DEMO-2", "--auto", "--restart").returncode == 0
    done = await wait_for(stack, "DEMO-2", Status.COMPLETED)
    stack.stop_service("worker")
    try:
        # A finished ticket answers from what its closed workflow holds: no worker, no replay.
        finished = starter(stack, "status", "DEMO-2")
        assert finished.returncode == 0, finished.stderr
        assert "done / completed" in finished.stdout and str(done.pr_url) in finished.stdout

        # A running one cannot answer without a worker, and says so and why.
        assert starter(stack, "DEMO-1", "--restart").returncode == 0
        env = child_env(stack.settings) | {"TICKETSMITH_STATUS_QUERY_SECONDS": "2"}
        running = subprocess.run(
            [sys.executable, "starter.py", "status", "DEMO-1"],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert running.returncode == 1
        assert "no worker answered its status query within 2 s" in running.stderr
        assert "still running" in running.stderr and "worker.log" in running.stderr
    finally:
        await stack.start_service("worker")
    assert "cancelled" in starter(stack, "cancel", "DEMO-1").stdout


async def test_an_added_repository_gets_a_ticket_through_to_its_pull_request(
    stack: Stack, tmp_path: Path
) -> None:
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "greet.py").write_text("def greet() -> str:\n    return 'hi'\n")
    (mine / "test_greet.py").write_text(
        "from greet import greet\n\n\ndef test_greet() -> None:\n    assert greet() == 'hi'\n"
    )
    for args in (
        ["init", "-q", "-b", "main"],
        ["add", "."],
        ["-c", "user.name=me", "-c", "user.email=me@x", "commit", "-qm", "Greet"],
    ):
        subprocess.run(["git", *args], cwd=mine, check=True, capture_output=True)
    env = child_env(stack.settings)

    def emulators(*args: str) -> str:
        done = subprocess.run(
            [sys.executable, "-m", "emulators", *args],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    assert 'repository = "me/mine"' in emulators("add-repo", str(mine), "--as", "me/mine")
    assert emulators("add-issue", "MINE", "Greet louder").startswith("created MINE-1")
    with stack.settings.projects_file.open("a") as projects:
        # Like the stack's other projects: the ticket ends when its pull request opens.
        projects.write('\n[projects.MINE]\nrepository = "me/mine"\nfollow_pull_request = false\n')

    started = starter(stack, "MINE-1", "--auto")
    assert started.returncode == 0, started.stderr
    done = await wait_for(stack, "MINE-1", Status.COMPLETED)
    assert done.pr_url and "/me/mine/pull/" in done.pr_url
    async with httpx.AsyncClient(base_url=stack.settings.jira_base_url) as http:
        pulls = (
            await http.get("/api/v3/repos/me/mine/pulls", headers={"Authorization": "Bearer t"})
        ).json()
    assert [p["html_url"] for p in pulls] == [done.pr_url]
