"""The embedded stack with several workers: each its own data directory, log and metrics port."""

from pathlib import Path

import pytest

from embedded.__main__ import main
from embedded.stack import Stack, StackError
from harness.stacks import stack_settings


def workers_of(stack: Stack) -> list:
    return [s for s in stack.services if s.name.startswith("worker")]


def test_one_worker_is_the_default_and_keeps_its_name_log_and_data_dir(tmp_path: Path) -> None:
    stack = Stack(stack_settings(tmp_path))
    [worker] = workers_of(stack)
    assert worker.name == "worker" and worker.env == {}
    assert stack.log_path(worker) == tmp_path / "logs" / "worker.log"


def test_each_of_three_workers_has_its_own_data_dir_log_and_metrics_port(tmp_path: Path) -> None:
    settings = stack_settings(tmp_path)
    stack = Stack(settings, workers=3)
    workers = workers_of(stack)
    assert [w.name for w in workers] == ["worker-1", "worker-2", "worker-3"]
    for n, worker in enumerate(workers, start=1):
        assert worker.env["TICKETSMITH_DATA_DIR"] == str(tmp_path / "workers" / str(n))
        assert worker.env["TICKETSMITH_PAYLOAD_STORE_DIR"] == str(settings.payload_store_path)
        assert worker.env["TICKETSMITH_METRICS_PORT"] == str(settings.metrics_port + n - 1)
        assert stack.log_path(worker) == tmp_path / "logs" / f"worker-{n}.log"
        assert worker.needs == ("temporal",)
    assert "3 on task queues e2e" in stack.describe()


def test_workers_without_metrics_have_no_metrics_port(tmp_path: Path) -> None:
    stack = Stack(stack_settings(tmp_path, metrics_port=0), workers=2)
    assert {w.env["TICKETSMITH_METRICS_PORT"] for w in workers_of(stack)} == {"0"}


def test_a_stack_without_workers_is_refused(tmp_path: Path) -> None:
    with pytest.raises(StackError, match="at least one worker, not 0"):
        Stack(stack_settings(tmp_path), workers=0)


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["up", "--workers", "0"], "at least one worker, not 0"),
        (["up", "--workers", "-2"], "at least one worker, not -2"),
        (["up", "--workers", "three"], "not a number: 'three'"),
        (["demo", "--workers", "2"], "--workers is for `up`"),
    ],
)
def test_the_command_refuses_a_bad_worker_count(
    argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(argv)
    assert exited.value.code == 2
    assert said in capsys.readouterr().err
