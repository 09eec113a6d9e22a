"""How long `starter.py --help`, `status KEY` and `list` take, wall clock, on a running stack.

    python -m bench.cli_speed [KEY] [--starter PATH] [--runs N]

Start the stack first (`make up`) and a ticket (`starter.py DEMO-1`). `--starter` times another
checkout's starter.py against the same stack, to compare before and after a change.
"""

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

from config import ROOT


def cpu_seconds() -> float:
    """User and system CPU time of every child process that ended so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(starter: Path, args: list[str]) -> tuple[float, float]:
    """One run of the command line: wall seconds from start to exit, and CPU seconds it used.

    On a busy machine the CPU time says more than the wall time, which includes waiting for a core.
    """
    cpu_before, began = cpu_seconds(), time.perf_counter()
    done = subprocess.run(
        [sys.executable, str(starter), *args],
        cwd=starter.parent,
        env=os.environ | {"PYTHONPATH": str(starter.parent)},
        capture_output=True,
        text=True,
    )
    elapsed, cpu = time.perf_counter() - began, cpu_seconds() - cpu_before
    if done.returncode != 0:
        raise SystemExit(f"starter.py {' '.join(args)} failed: {done.stderr.strip()}")
    return elapsed, cpu


def main() -> None:
    """Print the median and the spread of each command's wall time, and its median CPU time."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("key", nargs="?", default="DEMO-1")
    parser.add_argument("--starter", type=Path, default=ROOT / "starter.py")
    parser.add_argument("--runs", type=int, default=7)
    options = parser.parse_args()
    starter = options.starter.resolve()
    print(f"{starter} ({options.runs} runs each; load average {os.getloadavg()[0]:.1f})")
    for args in (["--help"], ["status", options.key], ["list"]):
        runs = [timed(starter, args) for _ in range(options.runs)]
        walls = sorted(wall for wall, _ in runs)
        cpu = statistics.median(cpu for _, cpu in runs)
        print(
            f"  starter.py {' '.join(args):<16} wall median {statistics.median(walls):.2f}s"
            f" (min {walls[0]:.2f}s, max {walls[-1]:.2f}s), CPU median {cpu:.2f}s"
        )


if __name__ == "__main__":
    main()
