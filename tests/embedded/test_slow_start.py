"""A service that is slow to start: the stack says what it waits for, then fails with what to do."""

import re
import subprocess
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from config import Settings
from embedded import stack as stack_module
from embedded.services import Service
from embedded.stack import LAUNCH, Stack, StackError, StackNotReadyError
from harness.processes import free_port


async def never_ready() -> bool:
    return False


def slow_stack(tmp_path: Path, reports: list[str], body: str = "time.sleep(120)") -> Stack:
    """A stack whose only service starts, logs its first line, then never becomes ready (or
    does what `body` says)."""
    script = tmp_path / "slow_service.py"
    script.write_text(f"import os, signal, time\n{body}\n")
    ports = ("emulator_port", "temporal_ui_port", "temporal_http_port", "metrics_port")
    settings = Settings(
        data_dir=tmp_path, ready_timeout_seconds=2, **{name: free_port() for name in ports}
    )
    stack = Stack(settings, report=reports.append)
    stack.services = [Service("slow", [*LAUNCH, "slow", str(script)], None, never_ready)]
    return stack


async def test_a_service_not_ready_in_time_fails_naming_its_log_and_the_setting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(stack_module, "PROGRESS_EVERY_S", 0.5)
    reports: list[str] = []
    stack = slow_stack(tmp_path, reports)
    try:
        with pytest.raises(StackNotReadyError) as raised:
            await stack.start()
    finally:
        stack.stop()
    log = tmp_path / "logs" / "slow.log"
    message = str(raised.value)
    assert f"read {log}" in message
    assert "TICKETSMITH_READY_TIMEOUT_SECONDS (now 2)" in message
    # The service's own first line is in the log (and the error) although it never got ready.
    assert "stack: starting slow: " in log.read_text()
    assert "slow starting (pid" in log.read_text()
    assert "slow starting (pid" in message
    assert reports, "no progress line while waiting"
    assert all(r.startswith("still waiting for slow to be ready") for r in reports)
    assert str(log) in reports[0]
    process = stack.services[0].process
    assert process is not None and process.poll() is not None


async def test_a_service_killed_at_start_is_named_with_its_signal(tmp_path: Path) -> None:
    stack = slow_stack(tmp_path, [], body="os.kill(os.getpid(), signal.SIGILL)")
    try:
        with pytest.raises(StackError, match=r"^slow was killed by SIGILL at start; Last lines"):
            await stack.start()
    finally:
        stack.stop()


def test_the_readiness_deadline_is_a_setting_with_a_generous_default(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("TICKETSMITH_READY_TIMEOUT_SECONDS", raising=False)
    assert Settings().ready_timeout_seconds >= 300
    monkeypatch.setenv("TICKETSMITH_READY_TIMEOUT_SECONDS", "1200")
    assert Settings().ready_timeout_seconds == 1200


def test_the_launcher_says_it_starts_then_runs_the_module_with_its_arguments() -> None:
    result = subprocess.run(
        [*LAUNCH, "probe", "-m", "json.tool", "--compact"],
        input='{"a": 1}',
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    first, second = result.stdout.splitlines()
    assert "probe starting (pid" in first
    assert second == '{"a":1}'


async def test_a_test_stack_that_cannot_start_fails_its_tests_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from harness.stacks import stack_settings
    from tests.e2e import stacks

    monkeypatch.setattr(stacks, "_too_slow", [])
    settings = stack_settings(tmp_path, ready_timeout_seconds=0.01)
    with pytest.raises(pytest.fail.Exception) as first:
        async with stacks.running(settings):
            raise AssertionError("the stack cannot have started")
    assert re.search(r"the stack did not start: [a-z-]+ not ready in 0 s", str(first.value))
    assert "TICKETSMITH_READY_TIMEOUT_SECONDS" in str(first.value)
    # The next module's stack does not wait again: its tests fail with the same message.
    with pytest.raises(pytest.fail.Exception, match="an earlier stack of this run did not start"):
        async with stacks.running(stack_settings(tmp_path)):
            raise AssertionError("the stack cannot have started")


async def test_services_start_side_by_side_once_what_they_need_is_ready(tmp_path: Path) -> None:
    reports: list[str] = []
    stack = slow_stack(tmp_path, reports)
    order: list[str] = []

    def ready_after(name: str, polls: int) -> Callable[[], Awaitable[bool]]:
        left = [polls]

        async def ready() -> bool:
            left[0] -= 1
            if left[0] <= 0:
                if name not in order:
                    order.append(name)
                return True
            return False

        return ready

    sleeper = tmp_path / "sleeper.py"
    sleeper.write_text("import time\ntime.sleep(120)\n")
    argv = [*LAUNCH, "sleeper", str(sleeper)]
    stack.services = [
        Service("first", argv, None, ready_after("first", 3)),
        Service("slow", argv, None, ready_after("slow", 10)),
        Service("after", argv, None, ready_after("after", 1), needs=("first",)),
    ]
    try:
        await stack.start()
    finally:
        stack.stop()
    # `after` waited for `first` only, not for `slow`, which was started beside them.
    assert order == ["first", "after", "slow"]
