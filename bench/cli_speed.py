"""How long `starter.py --help`, `status KEY` and `list` take, wall clock, on a running stack.

    python -m bench.cli_speed [KEY] [--starter PATH] [--runs N]

Start the stack first (`make up`) and a ticket (`starter.py DEMO-1`). `--starter` times another
checkout's starter.py against the same stack, to compare before and after a change.
"""

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from config import ROOT


def wall_seconds(starter: Path, args: list[str]) -> float:
    """One run of the command line, from process start to exit."""
    began = time.perf_counter()
    done = subprocess.run(
        [sys.executable, str(starter), *args],
        cwd=starter.parent,
        env=os.environ | {"PYTHONPATH": str(starter.parent)},
        capture_output=True,
        text=True,
    )
    elapsed = time.perf_counter() - began
    if done.returncode != 0:
        raise SystemExit(f"starter.py {' '.join(args)} failed: {done.stderr.strip()}")
    return elapsed


def main() -> None:
    """Print the median and the spread of each command's wall time."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("key", nargs="?", default="DEMO-1")
    parser.add_argument("--starter", type=Path, default=ROOT / "starter.py")
    parser.add_argument("--runs", type=int, default=7)
    options = parser.parse_args()
    starter = options.starter.resolve()
    print(f"{starter} ({options.runs} runs each)")
    for args in (["--help"], ["status", options.key], ["list"]):
        times = sorted(wall_seconds(starter, args) for _ in range(options.runs))
        print(
            f"  starter.py {' '.join(args):<16} median {statistics.median(times):.2f}s"
            f"  min {times[0]:.2f}s  max {times[-1]:.2f}s"
        )


if __name__ == "__main__":
    main()
