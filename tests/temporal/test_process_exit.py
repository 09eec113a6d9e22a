"""A process that ran a Temporal runtime leaves with its status, its message said."""

import subprocess
import sys

import pytest

from config import ROOT
from temporal.process_exit import exit_code

SCRIPT = (
    "import logging, sys\n"
    "from temporal.process_exit import run_then_exit\n"
    "async def main():\n"
    "    logging.basicConfig(stream=sys.stdout)\n"
    "    logging.getLogger('x').warning('drained')\n"
    "    {ending}\n"
    "run_then_exit(main)\n"
    "print('not reached')\n"
)


def test_a_system_exit_keeps_its_status_and_its_message(capsys: pytest.CaptureFixture) -> None:
    assert (exit_code(SystemExit()), exit_code(SystemExit(3))) == (0, 3)
    assert exit_code(SystemExit("worker not started: no key")) == 1
    assert capsys.readouterr().err == "worker not started: no key\n"


@pytest.mark.parametrize(
    ("ending", "status", "said"),
    [("return None", 0, ""), ("raise SystemExit('worker not started: no key')", 1, "no key")],
)
def test_the_process_exits_with_the_status_after_flushing(
    ending: str, status: int, said: str
) -> None:
    code = SCRIPT.format(ending=ending)
    run = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert run.returncode == status, run.stderr
    assert "drained" in run.stdout and "not reached" not in run.stdout
    assert said in run.stderr
