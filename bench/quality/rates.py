"""The benchmark over several runs: each ticket's resolve rate and resolved per run's spread
(dev), or one rate with its interval and spread over the seeds (the test split)."""

import math
import statistics
from collections.abc import Callable
from dataclasses import dataclass

from bench.quality.drive import TicketRun

Z_95 = 1.959964


@dataclass(frozen=True)
class Spread:
    """Tickets resolved in each run: the counts, their mean, range and standard deviation."""

    resolved: list[int]
    tickets: list[int]

    @property
    def mean(self) -> float:
        """Mean tickets resolved per run."""
        return statistics.fmean(self.resolved)

    @property
    def stdev(self) -> float | None:
        """The sample standard deviation of resolved per run (None for a single run)."""
        return statistics.stdev(self.resolved) if len(self.resolved) > 1 else None


def by_run(runs: list[TicketRun]) -> dict[int, list[TicketRun]]:
    """The ticket runs grouped by run number, in order."""
    grouped: dict[int, list[TicketRun]] = {}
    for run in sorted(runs, key=lambda r: r.run):
        grouped.setdefault(run.run, []).append(run)
    return grouped


def by_ticket(runs: list[TicketRun]) -> dict[str, list[TicketRun]]:
    """The ticket runs grouped by ticket, in the order the tickets first ran."""
    grouped: dict[str, list[TicketRun]] = {}
    for run in runs:
        grouped.setdefault(run.name, []).append(run)
    return grouped


def spread(runs: list[TicketRun]) -> Spread:
    """Resolved per run and tickets per run (of the scored runs: a question without a rubric
    is left out)."""
    grouped = by_run(runs).values()
    return Spread(
        resolved=[sum(r.resolved for r in group if r.scored) for group in grouped],
        tickets=[sum(r.scored for r in group) for group in grouped],
    )


def not_scored_line(runs: list[TicketRun]) -> list[str]:
    """The line saying how many runs were left out of the rate, when any were."""
    left_out = sum(not r.scored for r in runs)
    if not left_out:
        return []
    return [f"not scored: {left_out} (a question without `answer_facts` in its ticket.toml)"]


def mean_of(runs: list[TicketRun], figure: Callable[[TicketRun], float | None]) -> float | None:
    """The mean of a figure over the runs that have it."""
    values = [v for v in map(figure, runs) if v is not None]
    return statistics.fmean(values) if values else None


def cell(value: float | None, unit: str = "") -> str:
    """A mean for the table, or `-` where no run had the figure."""
    return "-" if value is None else f"{value:,.0f}{unit}"


def share(value: float | None) -> str:
    """A share for the table, or `-` where no run had the figure."""
    return "-" if value is None else f"{value:.0%}"


def rate_table(runs: list[TicketRun]) -> str:
    """Per ticket: resolved k of N, hidden tests, refuted claims, and means of tokens, time,
    time and tokens to the first revision, seconds per revision, and the code writers' prompt
    tokens per call with the share the prompt cache served; then resolved per run."""
    rows = [
        f"{'ticket':<20}{'resolved':>9}{'rate':>6}{'hidden':>9}{'refuted':>8}{'tokens':>9}"
        f"{'time':>7}{'1st rev':>9}{'1st tok':>9}{'s/rev':>7}{'p/call':>8}{'cached':>7}"
    ]
    for name, group in by_ticket(runs).items():
        resolved = sum(r.resolved for r in group if r.scored)
        scored = sum(r.scored for r in group)
        passed = sum(r.score.hidden.passed for r in group if r.score)
        total = sum(r.score.hidden.total for r in group if r.score)
        rate = f"{resolved / scored:.0%}" if scored else "-"
        rows.append(
            f"{name:<20}{f'{resolved}/{scored}' if scored else 'n/s':>9}{rate:>6}"
            f"{f'{passed}/{total}':>9}{sum(r.false_claim for r in group):>8}"
            f"{cell(mean_of(group, lambda r: r.tokens)):>9}"
            f"{cell(mean_of(group, lambda r: r.seconds), 's'):>7}"
            f"{cell(mean_of(group, lambda r: r.first_revision_seconds), 's'):>9}"
            f"{cell(mean_of(group, lambda r: r.first_revision_tokens)):>9}"
            f"{cell(mean_of(group, lambda r: r.seconds_per_revision), 's'):>7}"
            f"{cell(mean_of(group, lambda r: r.prompt_tokens_per_call)):>8}"
            f"{share(mean_of(group, lambda r: r.cached_share)):>7}"
        )
    return "\n".join([*rows, *totals(runs)])


def totals(runs: list[TicketRun]) -> list[str]:
    """The lines under the rate table: runs and seeds, resolved per run and its spread."""
    counts = spread(runs)
    seeds = sorted({r.seed for r in runs if r.seed is not None})
    per_run = ", ".join(f"{k}/{n}" for k, n in zip(counts.resolved, counts.tickets, strict=True))
    lines = [
        f"runs: {len(counts.resolved)}"
        + (f" (seeds {', '.join(map(str, seeds))})" if seeds else "")
        + f"; resolved per run: {per_run}",
        f"mean {counts.mean:.1f} resolved per run, min-max {min(counts.resolved)}-"
        f"{max(counts.resolved)}, standard deviation "
        + ("-" if counts.stdev is None else f"{counts.stdev:.1f}"),
        f"claimed success refuted by the hidden tests: {sum(r.false_claim for r in runs)}",
        *not_scored_line(runs),
    ]
    return lines


def wilson(successes: int, trials: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval of a rate (95% by default)."""
    if trials == 0:
        return 0.0, 1.0
    rate = successes / trials
    centre = (rate + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * math.sqrt(rate * (1 - rate) / trials + z * z / (4 * trials**2))
    return max(0.0, centre - half / (1 + z * z / trials)), min(
        1.0, centre + half / (1 + z * z / trials)
    )


STEPS: list[tuple[str, Callable[[TicketRun], float | None], str]] = [
    ("whole ticket, seconds", lambda r: r.seconds, "s"),
    ("whole ticket, tokens", lambda r: r.tokens, ""),
    ("to the first revision, seconds", lambda r: r.first_revision_seconds, "s"),
    ("to the first revision, tokens", lambda r: r.first_revision_tokens, ""),
    ("implementation, seconds", lambda r: r.implementation_seconds, "s"),
    ("one revision, seconds", lambda r: r.seconds_per_revision, "s"),
    ("code writer's call, prompt tokens", lambda r: r.prompt_tokens_per_call, ""),
]


def step_lines(runs: list[TicketRun]) -> list[str]:
    """Per step, the mean seconds and tokens over the runs that recorded them, then each model
    step's seconds, prompt tokens and cached share a ticket."""
    lines = [
        f"  {label:<36}{cell(mean_of(runs, figure), unit):>10}"
        for label, figure, unit in STEPS
        if mean_of(runs, figure) is not None
    ]
    lines += model_step_lines(runs)
    return ["per step (means over the tickets that recorded it):", *lines] if lines else []


def model_step_lines(runs: list[TicketRun]) -> list[str]:
    """Each model step's mean seconds and prompt tokens a ticket, and the share cached."""
    tasks = list(dict.fromkeys(task for r in runs for task in r.model_steps))
    lines = []
    for task in tasks:
        steps = [r.model_steps[task] for r in runs if task in r.model_steps]
        seconds = statistics.fmean(s.seconds for s in steps)
        prompt = statistics.fmean(s.prompt_tokens for s in steps)
        read, cached = sum(s.prompt_tokens for s in steps), sum(s.cached_tokens for s in steps)
        cached_share = cached / read if read else 0.0
        lines.append(
            f"  model step {task:<25}{seconds:>9.0f}s {prompt:>8,.0f} prompt tokens "
            f"{cached_share:>4.0%} cached ({len(steps)} tickets)"
        )
    return lines


def rate_of_test_split(runs: list[TicketRun]) -> str:
    """The test split as one rate: resolved over attempted pooled over the runs with its 95%
    Wilson interval, resolved per run's mean and standard deviation over the seeds; never a
    ticket's own result."""
    counts = spread(runs)
    resolved, attempted = sum(counts.resolved), sum(counts.tickets)
    low, high = wilson(resolved, attempted)
    seeds = sorted({r.seed for r in runs if r.seed is not None})
    rate = resolved / attempted if attempted else 0.0
    sd = "-" if counts.stdev is None else f"{counts.stdev:.1f}"
    lines = [
        f"test split: {len(by_ticket(runs))} tickets, {len(counts.resolved)} runs"
        + (f" (seeds {', '.join(map(str, seeds))})" if seeds else ""),
        f"resolved {resolved}/{attempted} = {rate:.1%}, 95% interval {low:.1%}-{high:.1%} "
        "(Wilson, pooled over the runs)",
        f"resolved per run: mean {counts.mean:.1f} of {max(counts.tickets, default=0)}, "
        f"standard deviation {sd}",
        f"claimed success refuted by the hidden tests: {sum(r.false_claim for r in runs)}",
        *not_scored_line(runs),
        *step_lines(runs),
    ]
    return "\n".join(lines)
