"""`starter.py watch` on a real ticket: redrawn in place on a terminal, else one line per change."""

import asyncio
import fcntl
import os
import pty
import re
import signal
import subprocess
import sys
import termios
import threading
import time

import pytest
from temporalio.client import WorkflowExecutionStatus

from config import ROOT
from embedded.stack import Stack, child_env
from temporal.client import connect_temporal
from tests.e2e.test_commands import starter, wait_for
from workflows.ticket.messages import Status

pytestmark = pytest.mark.e2e
DEADLINE_S = 180
ESCAPES = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def take_terminal() -> None:
    """In the child: lead a new session whose controlling terminal is the pty, so ^C is SIGINT.

    SIGINT is reset too: a test run started in the background by a shell inherits it ignored,
    and Python then never turns ^C into KeyboardInterrupt, as no terminal user's shell would.
    """
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class Terminal:
    """A command on a pseudo-terminal, its output collected as it comes."""

    def __init__(self, stack: Stack, *args: str) -> None:
        main, side = pty.openpty()
        env = child_env(stack.settings) | {"TERM": "xterm-256color", "COLUMNS": "120"}
        env["PYTHONFAULTHANDLER"] = "1"  # SIGABRT prints every thread's stack: see exit_code
        env.pop("NO_COLOR", None)
        self.process = subprocess.Popen(
            [sys.executable, "starter.py", *args],
            cwd=ROOT, env=env, stdin=side, stdout=side, stderr=side, preexec_fn=take_terminal,
        )  # fmt: skip
        os.close(side)
        self._main = main
        self.raw = ""
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        while True:
            try:
                chunk = os.read(self._main, 4096)
            except OSError:  # the command ended and closed its side
                return
            if not chunk:
                return
            self.raw += chunk.decode(errors="replace")

    @property
    def text(self) -> str:
        """What was shown, without the escape sequences that move the cursor."""
        return ESCAPES.sub("", self.raw)

    async def shows(self, pattern: str) -> None:
        """Wait until the output matches `pattern`, failing after a deadline."""
        deadline = time.monotonic() + DEADLINE_S
        while time.monotonic() < deadline:
            if re.search(pattern, self.text):
                return
            await asyncio.sleep(0.1)
        raise AssertionError(
            f"the terminal never showed {pattern!r}; it shows:\n{self.text[-2000:]}"
        )

    def interrupt(self) -> None:
        """Ctrl-C, as typed."""
        os.write(self._main, b"\x03")

    def exit_code(self) -> int:
        """The command's exit code; if it does not end, a failure showing where it hangs."""
        try:
            code = self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.send_signal(signal.SIGABRT)
            self.process.wait(timeout=30)
            self._reader.join(timeout=10)
            raise AssertionError(
                f"the command did not end within 60s; its output and stacks:\n{self.text[-6000:]}"
            ) from None
        # The reader may not have read its last words yet: it ends when the terminal closes.
        self._reader.join(timeout=10)
        return code


async def test_watch_follows_a_ticket_through_its_phases(stack: Stack) -> None:
    assert starter(stack, "DEMO-1", "--restart").returncode == 0
    piped = subprocess.Popen(
        [sys.executable, "starter.py", "watch", "DEMO-1"],
        cwd=ROOT, env=child_env(stack.settings), stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    terminal = Terminal(stack, "watch", "DEMO-1")
    try:
        await terminal.shows(r"DEMO-1  refinement / awaiting_answers")
        assert re.search(r"waiting\s+for answers to the questions on Jira", terminal.text)
        await wait_for(stack, "DEMO-1", Status.AWAITING_ANSWERS)
        assert starter(stack, "answer", "DEMO-1", "Return a float.").returncode == 0
        await terminal.shows(r"DEMO-1  planning / awaiting_approval")
        await wait_for(stack, "DEMO-1", Status.AWAITING_APPROVAL)
        assert starter(stack, "approve", "DEMO-1").returncode == 0
        await terminal.shows(r"DEMO-1 completed: Pull request opened")
        assert terminal.exit_code() == 0
        out, err = piped.communicate(timeout=60)
    finally:
        for process in (terminal.process, piped):
            if process.poll() is None:
                process.kill()
    assert "\x1b[" in terminal.raw and "\x1b[1A" in terminal.raw  # redrawn in place
    assert re.search(r"step\s+Analyse the codebase \(\d+s\)|step\s+\w.*\(\d+s\)", terminal.text)
    # The offline model's revisions can pass between two polls (0: before the first one)
    # (its rendering: tests/workflows/test_live_progress.py).
    shown = re.findall(r"revision\s+(\d+) of (\d+): ", terminal.text)
    assert shown and all(0 <= int(n) <= int(m) for n, m in shown), terminal.text[-2000:]

    assert piped.returncode == 0, err
    lines = out.splitlines()
    assert all("\x1b" not in line for line in lines)
    assert len(lines) == len(set(lines))  # a line only when something changed
    heads = [line.split(" | ")[0] for line in lines[:-1]]
    assert all(head.startswith("DEMO-1 ") for head in heads)
    order = ["refinement/awaiting_answers", "planning/awaiting_approval", "implementation/running"]
    firsts = [next(i for i, h in enumerate(heads) if h.endswith(state)) for state in order]
    assert firsts == sorted(firsts)
    waiting = lines[firsts[0]].split(" | ")
    assert waiting[1] == "waiting: for answers to the questions on Jira"
    assert waiting[-2].startswith("tokens: ") and waiting[-1].startswith("cost: $")
    approval = lines[firsts[1]].split(" | ")
    assert approval[1] == "waiting: for approval of plan v1"
    implementing = [line for line in lines if line.startswith("DEMO-1 implementation/running")]
    revisions = [
        re.search(r" \| step: Implement plan v1 \| revision: \d+ of ", x) for x in implementing
    ]
    assert any(revisions), implementing
    assert lines[-1].startswith("DEMO-1 completed: Pull request opened: http")


async def test_ctrl_c_stops_watching_never_the_ticket(stack: Stack) -> None:
    assert starter(stack, "DEMO-2", "--restart").returncode == 0
    terminal = Terminal(stack, "watch", "DEMO-2")
    try:
        await terminal.shows(r"DEMO-2  refinement / awaiting_answers")
        terminal.interrupt()
        assert terminal.exit_code() == 0
    finally:
        if terminal.process.poll() is None:
            terminal.process.kill()
    assert "stopped watching DEMO-2; it goes on (starter.py status DEMO-2)" in terminal.text
    assert "Traceback" not in terminal.text
    client = await connect_temporal(stack.settings)
    described = await client.get_workflow_handle("ticket-DEMO-2").describe()
    assert described.status == WorkflowExecutionStatus.RUNNING
    assert starter(stack, "cancel", "DEMO-2").returncode == 0


async def test_watching_a_ticket_never_started_is_one_clear_line(stack: Stack) -> None:
    done = starter(stack, "watch", "DEMO-99")
    assert done.returncode == 1
    assert (
        done.stderr == "error: DEMO-99 has never been started; start it with: starter.py DEMO-99\n"
    )
