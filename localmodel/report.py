"""Token use and model time per task and phase, from the worker's log.

`python -m localmodel.report [.data/logs/worker.log]`
"""

import argparse
import re
import sys
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from config import get_settings
from config.models import ModelSettings

_CALL = re.compile(
    r"model call task=(?P<task>\w+) prompt_tokens=(?P<prompt>\d+) "
    r"completion_tokens=(?P<completion>\d+) seconds=(?P<seconds>[\d.]+)"
    r"(?:.*? cached_tokens=(?P<cached>\d+))?"
)
PHASES = {
    "analysis": "refinement",
    "questions": "refinement",
    "requirements": "refinement",
    "plan": "planning",
    "implement_file": "implementation",
    "review": "implementation",
}


@dataclass
class Totals:
    """What a group of calls used."""

    calls: int = 0
    prompt: int = 0
    completion: int = 0
    seconds: float = 0.0
    cached: int = 0  # prompt tokens the server's prompt cache served

    def add(self, prompt: int, completion: int, seconds: float, cached: int = 0) -> None:
        """Count one call."""
        self.calls += 1
        self.prompt += prompt
        self.completion += completion
        self.seconds += seconds
        self.cached += cached

    def merge(self, other: "Totals") -> None:
        """Count another group's calls too."""
        self.calls += other.calls
        self.prompt += other.prompt
        self.completion += other.completion
        self.seconds += other.seconds
        self.cached += other.cached

    @property
    def prompt_per_call(self) -> float:
        """Prompt tokens a call sent, on average."""
        return self.prompt / self.calls if self.calls else 0.0

    @property
    def cached_share(self) -> float:
        """The share of prompt tokens the prompt cache served."""
        return self.cached / self.prompt if self.prompt else 0.0

    def row(self, name: str) -> str:
        """One line of the table."""
        rate = self.completion / self.seconds if self.seconds else 0.0
        return (
            f"{name:<16}{self.calls:>6}{self.prompt:>10}{self.completion:>12}"
            f"{self.seconds:>10.0f}{rate:>9.1f}{self.prompt_per_call:>12.0f}"
            f"{self.cached_share:>8.0%}"
        )


def summarise(lines: list[str]) -> dict[str, dict[str, Totals]]:
    """Totals by phase, then by task, of every logged model call."""
    phases: dict[str, dict[str, Totals]] = defaultdict(lambda: defaultdict(Totals))
    for line in lines:
        match = _CALL.search(line)
        if match is None:
            continue
        task = match["task"]
        phases[PHASES.get(task, "other")][task].add(
            int(match["prompt"]),
            int(match["completion"]),
            float(match["seconds"]),
            int(match["cached"] or 0),
        )
    return phases


def render(phases: dict[str, dict[str, Totals]]) -> str:
    """The summary as a table: per task, per phase, and in all."""
    header = (
        f"{'':<16}{'calls':>6}{'prompt':>10}{'completion':>12}{'seconds':>10}{'tok/s':>9}"
        f"{'prompt/call':>12}{'cached':>8}"
    )
    out = [header]
    everything = Totals()
    for phase, tasks in phases.items():
        total = Totals()
        for task, totals in tasks.items():
            out.append(totals.row(f"  {task}"))
            total.merge(totals)
        out.append(total.row(phase))
        everything.merge(total)
    out.append(everything.row("all"))
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    """Entry point."""
    parser = argparse.ArgumentParser(prog="python -m localmodel.report", description=__doc__)
    parser.add_argument("log", nargs="?", type=Path, help="default: the worker log in the data dir")
    args = parser.parse_args(argv)
    path = args.log or get_settings(ModelSettings).data_dir / "logs" / "worker.log"
    if not path.is_file():
        print(f"error: {path} does not exist", file=sys.stderr)
        return 1
    phases = summarise(path.read_text(errors="replace").splitlines())
    if not phases:
        print(f"no model calls logged in {path} (only the local provider logs them)")
        return 0
    print(render(phases))
    return 0


if __name__ == "__main__":
    sys.exit(main())
