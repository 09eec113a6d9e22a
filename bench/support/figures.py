"""Figures as one line each, with their target and whether it is met; percentiles; RSS."""

import os
import statistics
import sys
from collections.abc import Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


class CannotMeasureError(Exception):
    """The bench could not take its measurement (as opposed to a figure missing its target)."""


def percentile(values: list[float], p: float) -> float:
    """The p-th percentile (0-100) by linear interpolation."""
    if not values:
        raise CannotMeasureError("no samples to take a percentile of")
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[min(int(p), 99) - 1]


def rss_bytes(pid: int, peak: bool = False) -> int:
    """Resident memory of a process and its children (VmHWM of each with `peak`)."""
    field_name = "VmHWM" if peak else "VmRSS"
    total = 0
    for one in [pid, *children(pid)]:
        try:
            status = Path(f"/proc/{one}/status").read_text()
        except OSError:
            continue
        for line in status.splitlines():
            if line.startswith(field_name + ":"):
                total += int(line.split()[1]) * 1024
    return total


def children(pid: int) -> list[int]:
    """Every descendant of a process."""
    found: list[int] = []
    try:
        direct = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return found
    for child in map(int, direct):
        found += [child, *children(child)]
    return found


def mib(n: float) -> str:
    """Bytes as MiB."""
    return f"{n / 2**20:.0f} MiB"


@dataclass
class Report:
    """Collects figures, prints each as one line, and says whether all targets were met."""

    title: str
    missed: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        print(f"# {self.title}", flush=True)
        self.note(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the start")

    def figure(self, name: str, value: str, target: str = "", met: bool | None = None) -> None:
        """Print `name: value  (target: ..., met|MISSED)`."""
        verdict = "" if met is None else ("met" if met else "MISSED")
        if met is False:
            self.missed.append(name)
        note = f"  (target {target}: {verdict})" if target else ""
        print(f"{name:<44} {value}{note}", flush=True)

    def note(self, text: str) -> None:
        """A line of context (not a figure)."""
        print(f"  {text}", flush=True)

    def done(self) -> int:
        """Exit code: 0 once measured, whatever the targets (a missed one is reported)."""
        self.note(f"load average {os.getloadavg()[0]:.1f} at the end")
        if self.missed:
            print(f"targets missed: {', '.join(self.missed)}", flush=True)
        return 0


def run_main(main_coro: Coroutine[Any, Any, int]) -> None:
    """Run a bench's main coroutine; exit 2 with the reason when it could not measure."""
    import asyncio
    import signal

    def interrupted(signum: int, frame: object) -> None:
        raise KeyboardInterrupt  # unwinds the bench, so its stack is stopped

    signal.signal(signal.SIGTERM, interrupted)
    try:
        code = asyncio.run(main_coro)
    except CannotMeasureError as err:
        print(f"could not measure: {err}", file=sys.stderr)
        sys.exit(2)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        sys.exit(130)
    sys.exit(code)
