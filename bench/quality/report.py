"""The benchmark's table and its results file, one per invocation (of one run or several).

`python -m bench.quality.report FILE...` prints the tables of results files again, older ones
too; several files read as runs of one rate report, a run continued in a later file (the
same seed, other tickets) as one run. Runs of the test split print as one rate.
"""

import argparse
import json
import os
import platform
import sys
from datetime import UTC, datetime
from pathlib import Path

from pydantic import ValidationError

from bench.quality.drive import TicketRun
from bench.quality.rates import by_run, not_scored_line, rate_of_test_split, rate_table, spread
from bench.quality.splits import load_splits
from bench.quality.tickets import TicketError, load_tickets

RESULTS_DIR = Path(__file__).resolve().parent / "results"


def yes_no(value: bool | None) -> str:
    """A flag for the table."""
    return "-" if value is None else ("yes" if value else "no")


def hidden_cell(run: TicketRun) -> str:
    """Hidden tests passed of total, or why there is no count."""
    if run.score is None:
        return "-"
    return f"{run.score.hidden.passed}/{run.score.hidden.total}"


def table(runs: list[TicketRun]) -> str:
    """Per ticket and in total: resolved, hidden tests, claimed success, tokens, time."""
    rows = [
        f"{'ticket':<20}{'resolved':>9}{'hidden':>8}{'own':>7}{'claimed':>9}{'tokens':>9}"
        f"{'time':>8}"
    ]
    for run in runs:
        own = (
            "-" if run.score is None else f"{run.score.existing.passed}/{run.score.existing.total}"
        )
        rows.append(
            f"{run.name:<20}{yes_no(run.resolved) if run.scored else 'n/s':>9}"
            f"{hidden_cell(run):>8}{own:>7}"
            f"{yes_no(run.claimed_success):>9}{run.tokens:>9,}{run.seconds:>7.0f}s"
            + (f"  ({run.error[:60]})" if run.error else "")
        )
    resolved = sum(r.resolved for r in runs if r.scored)
    scored = sum(r.scored for r in runs)
    passed = sum(r.score.hidden.passed for r in runs if r.score)
    total = sum(r.score.hidden.total for r in runs if r.score)
    claimed = sum(r.claimed_success for r in runs)
    false = sum(r.false_claim for r in runs)
    rows.append(
        f"{'total':<20}{f'{resolved}/{scored}':>9}{f'{passed}/{total}':>8}{'':>7}"
        f"{claimed:>9}{sum(r.tokens for r in runs):>9,}{sum(r.seconds for r in runs):>7.0f}s"
    )
    rows.append(f"claimed success refuted by the hidden tests: {false}")
    return "\n".join([*rows, *not_scored_line(runs)])


def machine() -> dict[str, object]:
    """What the run ran on."""
    return {
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
    }


def results_path(model: str, results_dir: Path = RESULTS_DIR) -> Path:
    """The file of a run starting now."""
    return results_dir / f"{datetime.now(UTC):%Y%m%dT%H%M%SZ}-{model}.json"


def write_results(
    runs: list[TicketRun],
    model: str,
    settings: dict[str, object],
    results_dir: Path = RESULTS_DIR,
    path: Path | None = None,
) -> Path:
    """Write the results as JSON (again after each ticket, to `path`); returns the file.

    `runs` holds every ticket of every run, each with its run number and seed.
    """
    now = datetime.now(UTC)
    path = path or results_path(model, results_dir)
    path.parent.mkdir(parents=True, exist_ok=True)
    data = {
        "date": now.isoformat(timespec="seconds"),
        "model": model,
        "machine": machine(),
        "settings": settings,
        "resolved": sum(r.resolved for r in runs if r.scored),
        "not_scored": sum(not r.scored for r in runs),
        "tickets": len({r.name for r in runs}),
        "resolved_per_run": spread(runs).resolved,
        "false_claims": sum(r.false_claim for r in runs),
        "runs": [
            {
                **r.model_dump(mode="json"),
                "resolved": r.resolved,
                "false_claim": r.false_claim,
                "scored": r.scored,
                "seconds_per_revision": r.seconds_per_revision,
            }
            for r in runs
        ],
    }
    path.write_text(json.dumps(data, indent=2) + "\n")
    return path


class ResultsError(ValueError):
    """A results file that cannot be read."""


def read_results(path: Path) -> list[TicketRun]:
    """The ticket runs of a results file (files written before runs were numbered: run 1)."""
    try:
        data = json.loads(path.read_text())
        return [TicketRun.model_validate(run) for run in data["runs"]]
    except (OSError, json.JSONDecodeError, KeyError, TypeError, ValidationError) as err:
        raise ResultsError(f"{path}: not a quality benchmark results file ({err})") from err


def read_many(paths: list[Path]) -> list[TicketRun]:
    """The runs of several files as one series, each file's runs numbered after the last's;
    a run continued in a later file on other tickets (the same seed, no ticket in common)
    joins the run it continues."""
    series: list[TicketRun] = []
    for path in paths:
        offset = max((r.run for r in series), default=0)
        for number, group in by_run(read_results(path)).items():
            joined = continued_run(series, group)
            run = joined if joined is not None else offset + number
            series += [r.model_copy(update={"run": run}) for r in group]
    numbers = {run: index for index, run in enumerate(sorted({r.run for r in series}), 1)}
    return [r.model_copy(update={"run": numbers[r.run]}) for r in series]


def continued_run(series: list[TicketRun], group: list[TicketRun]) -> int | None:
    """The run of `series` that `group` continues: the same seed and none of its tickets."""
    seed = group[0].seed
    if seed is None:
        return None
    names = {r.name for r in group}
    for number, earlier in by_run(series).items():
        if earlier[0].seed == seed and not names & {r.name for r in earlier}:
            return number
    return None


def is_test_split(runs: list[TicketRun]) -> bool:
    """Whether the runs are of the test split (every ticket of theirs is in it)."""
    try:
        return load_splits().is_test([r.name for r in runs], load_tickets())
    except TicketError:  # a checkout without the splits or tickets reads as dev
        return False


def report(runs: list[TicketRun], test_split: bool | None = None) -> str:
    """Each run's table, then (for more than one run) the rates over them; the test split
    (found from the tickets' names unless told) as one rate."""
    if test_split if test_split is not None else is_test_split(runs):
        return rate_of_test_split(runs)
    grouped = by_run(runs)
    parts = [
        (f"run {number}" + (f", seed {group[0].seed}" if group[0].seed is not None else ""))
        + "\n"
        + table(group)
        for number, group in grouped.items()
    ]
    if len(grouped) > 1:
        parts.append(f"over {len(grouped)} runs\n" + rate_table(runs))
    return "\n\n".join(parts)


def main(argv: list[str] | None = None) -> int:
    """Entry point of `python -m bench.quality.report`."""
    parser = argparse.ArgumentParser(prog="python -m bench.quality.report", description=__doc__)
    parser.add_argument("files", nargs="+", type=Path, help="results files (bench/quality/results)")
    args = parser.parse_args(argv)
    try:
        print(report(read_many(args.files)))
    except ResultsError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
