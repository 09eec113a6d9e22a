"""The implementation loop with and without its optional steps: which of them pay.

    python -m bench.ablation [--steps defaults,no-example-tests]
        [--runs N] [--temperature T] [--seed S] [--max-revisions R] [TICKET ...]

Runs the implementation loop alone (`implement_plan`, no stack, no planner) on each
quality-benchmark ticket that takes a change, once per step setting and run, from the same
plan: the files the ticket's reference changes (bench/quality/reference_plan.py), so that
only the step differs; the step `floor` is no loop at all but one bare call of the model on
the same files (bench/floor.py), the mark the loop must beat. The repository's tests run as
the loop's tester on a copy; the changes it returns are scored with the ticket's hidden tests.
A revision cap, not a time limit, bounds each run, so a busy machine makes a run slower but
not different. At temperature zero the
runs of one setting are the same; `--runs N --temperature T` samples N of them (seed S, S+1,
...) for a rate. Prints a row per ticket (resolved runs per setting) and a row per setting
(resolve rate, hidden tests passed, tokens and seconds per run), and keeps the figures in
bench/quality/results/ablations/ (after every run); `--report FILE...` prints the tables of
such files again, several as one. Needs the local model (`make local-model`), or `--model
offline` to check the bench itself.
"""

import argparse
import asyncio
import difflib
import json
import statistics
import sys
import tempfile
import time
import traceback
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path

from langchain_core.language_models import BaseChatModel

from bench.floor import floor_changes
from bench.quality.reference_plan import reference_input
from bench.quality.report import RESULTS_DIR
from bench.quality.scoring import score_checkout
from bench.quality.splits import DEV, load_splits
from bench.quality.tickets import Ticket, TicketError, copy_tree, load_tickets
from bench.support.checkout import commit
from bench.support.local_server import local_server
from config import get_settings
from graphs.implementation.graph import implement_plan
from graphs.offline import OfflineChatModel
from graphs.schemas import FileChange
from harness.local_tester import LocalTester, write_changes
from harness.processes import free_port
from localmodel.chat import local_chat_model
from localmodel.server import LocalModelMissingError

ABLATIONS_DIR = RESULTS_DIR / "ablations"
FLOOR = "floor"
TEST_COMMAND = "python -m pytest -q"
TEST_TIMEOUT_S = 120.0
# Each optional step of the loop, as the loop's options with it switched from the defaults.
STEPS: dict[str, dict[str, object]] = {
    "defaults": {},
    "no-example-tests": {"example_tests": False},
    "no-failing-review": {"review_failing": False},
    "whole-files": {"definition_edits": False},
    "targets": {"definition_targets": True},
    "draft": {"first_draft": True},
    "bare": {"first_draft": True, "bare_revisions": True},
    "candidates": {"candidates": 4},
    # Not the loop: one bare call of the model on the same files (bench/floor.py).
    FLOOR: {},
}


class FiguresError(ValueError):
    """A file that is not a figures file of this bench."""


@dataclass
class LoopRun:
    """One run of the loop on one ticket with one step setting, scored."""

    ticket: str
    step: str
    seed: int
    resolved: bool
    hidden_passed: int
    hidden_total: int
    revisions: int
    tokens: int
    seconds: float
    # What the loop said and changed, to read a run again (empty in older figures files).
    notes: str = ""
    diff: str = ""


def loop_options(step: str) -> dict[str, object]:
    """The loop's options for a step setting: the worker's defaults, then the step's change."""
    settings = get_settings()
    options: dict[str, object] = {
        "example_tests": settings.implementation_example_tests,
        "review_failing": True,
        "definition_edits": settings.implementation_definition_edits,
        "definition_targets": settings.implementation_definition_targets,
        "first_draft": settings.implementation_first_draft,
        "bare_revisions": settings.implementation_bare_revisions,
        "candidates": settings.implementation_candidates,
    }
    return options | STEPS[step]


def dev_tickets(names: list[str]) -> list[Ticket]:
    """The named tickets, else the dev split's: the test split gives figures, never choices."""
    tickets = load_tickets(names or None)
    splits = load_splits()
    if not names:
        return splits.tickets_of(DEV, tickets)
    held_out = [t.name for t in tickets if splits.test.holds(t)]
    if held_out:
        raise TicketError(
            f"{', '.join(held_out)} belong to the test split, which an ablation never runs:"
            " name dev-split tickets, or none for all of them"
        )
    return tickets


async def run_loop(
    model: BaseChatModel, ticket: Ticket, step: str, seed: int, max_revisions: int, scratch: Path
) -> LoopRun:
    """The loop on a fresh copy of the ticket's repository, its changes scored."""
    work = scratch / f"{ticket.name}-{step}-{seed}"
    repo = work / "repo"
    copy_tree(ticket.repo_dir, repo)
    given = reference_input(ticket, repo)
    tester = LocalTester(repo, work / "tests", TEST_COMMAND, TEST_TIMEOUT_S, check_imports=True)
    began = time.monotonic()
    if step == FLOOR:
        changes, tokens = await floor_changes(model, ticket, repo)
        revisions, notes = 1, "one bare call: the ticket and its files in, whole files out"
    else:
        done = await implement_plan(
            model, repo, given["ticket"], given["plan"], given["requirements"],
            tester=tester, max_revisions=max_revisions, **loop_options(step),  # type: ignore[arg-type]
        )  # fmt: skip
        changes, tokens, revisions, notes = done.changes, done.tokens, done.revisions, done.notes
    seconds = time.monotonic() - began
    checkout = work / "checkout"
    copy_tree(ticket.repo_dir, checkout)
    write_changes(checkout, changes)
    score = await asyncio.to_thread(score_checkout, ticket, checkout)
    return LoopRun(
        ticket=ticket.name, step=step, seed=seed, resolved=score.resolved,
        hidden_passed=score.hidden.passed, hidden_total=score.hidden.total,
        revisions=revisions, tokens=tokens, seconds=round(seconds, 1),
        notes=notes, diff=changes_diff(ticket.repo_dir, changes),
    )  # fmt: skip


def changes_diff(repo: Path, changes: list[FileChange]) -> str:
    """The changes as a unified diff against the ticket's repository."""
    parts: list[str] = []
    for change in changes:
        before = (repo / change.path).read_text() if (repo / change.path).is_file() else ""
        after = "" if change.delete else change.content
        parts += difflib.unified_diff(
            before.splitlines(keepends=True), after.splitlines(keepends=True),
            f"a/{change.path}", f"b/{change.path}",
        )  # fmt: skip
    return "".join(parts)


def ticket_table(runs: list[LoopRun], steps: list[str], tickets: list[str]) -> str:
    """A row per ticket: how many of its runs each step setting resolved ("-": not run)."""
    lines = [f"{'ticket':<20}" + "".join(f"{step:>18}" for step in steps)]
    for name in tickets:
        cells = []
        for step in steps:
            mine = [r for r in runs if r.ticket == name and r.step == step]
            hidden = sum(r.hidden_passed for r in mine), sum(r.hidden_total for r in mine)
            resolved = f"{sum(r.resolved for r in mine)}/{len(mine)} ({hidden[0]}/{hidden[1]})"
            cells.append(resolved if mine else "-")
        lines.append(f"{name:<20}" + "".join(f"{cell:>18}" for cell in cells))
    return "\n".join(lines)


def step_table(runs: list[LoopRun], steps: list[str]) -> str:
    """A row per step setting: resolve rate (mean and spread over seeds), hidden tests, cost."""
    lines = [
        f"{'step':<18}{'resolved':>10}{'rate':>7}{'spread':>8}{'hidden':>10}"
        f"{'tokens/run':>12}{'s/run':>8}{'rev/run':>9}"
    ]
    for step in steps:
        mine = [r for r in runs if r.step == step]
        if not mine:
            continue
        per_seed = [
            statistics.fmean(r.resolved for r in mine if r.seed == seed)
            for seed in sorted({r.seed for r in mine})
        ]
        spread = f"{statistics.stdev(per_seed):.0%}" if len(per_seed) > 1 else "-"
        hidden = f"{sum(r.hidden_passed for r in mine)}/{sum(r.hidden_total for r in mine)}"
        lines.append(
            f"{step:<18}{sum(r.resolved for r in mine):>4}/{len(mine):<5}"
            f"{statistics.fmean(per_seed):>7.0%}{spread:>8}{hidden:>10}"
            f"{statistics.fmean(r.tokens for r in mine):>12,.0f}"
            f"{statistics.fmean(r.seconds for r in mine):>8.0f}"
            f"{statistics.fmean(r.revisions for r in mine):>9.1f}"
        )
    return "\n".join(lines)


def figures_path(directory: Path) -> Path:
    """A new figures file in `directory`, named by the time."""
    directory.mkdir(parents=True, exist_ok=True)
    return directory / f"{datetime.now(UTC):%Y%m%dT%H%M%SZ}-ablation.json"


def write_figures(runs: list[LoopRun], args: argparse.Namespace, path: Path) -> None:
    """The runs so far and the bench's settings as JSON (again after every run, so a bench
    cut short keeps what it measured)."""
    settings = {key: value for key, value in vars(args).items() if key not in ("base_url", "path")}
    path.write_text(json.dumps({**settings, "results": [asdict(r) for r in runs]}, indent=2) + "\n")


def read_figures(paths: list[Path]) -> list[LoopRun]:
    """The runs kept in figures files, in order."""
    try:
        return [LoopRun(**run) for path in paths for run in json.loads(path.read_text())["results"]]
    except (OSError, ValueError, KeyError, TypeError) as err:
        raise FiguresError(f"not a figures file of bench.ablation: {err}") from err


def run_details(runs: list[LoopRun]) -> str:
    """Each run's figures, notes and diff."""
    if not runs:
        return "no run of that ticket in these files"
    return "\n\n".join(
        f"## {r.ticket} {r.step} seed {r.seed}: {'resolved' if r.resolved else 'not resolved'},"
        f" hidden {r.hidden_passed}/{r.hidden_total}, {r.revisions} rev, {r.seconds:.0f} s"
        f"\n\n{r.notes or '(no notes kept)'}\n\n{r.diff or '(no change)'}"
        for r in runs
    )


def tables(runs: list[LoopRun], steps: list[str], tickets: list[str]) -> str:
    """The ticket table, then the step table."""
    return f"{ticket_table(runs, steps, tickets)}\n\n{step_table(runs, steps)}"


async def ablate(args: argparse.Namespace, model: BaseChatModel | None) -> list[LoopRun]:
    """Every ticket under every step setting, `--runs` times; the table printed as rows land."""
    tickets = [t for t in dev_tickets(args.tickets) if t.needs_change]
    runs: list[LoopRun] = []
    with tempfile.TemporaryDirectory(prefix="ablation-") as scratch:
        for number in range(args.runs):
            seed = args.seed + number
            chat = model or local_chat_model(
                args.base_url, context=get_settings().local_model_context,
                temperature=args.temperature, seed=seed,
            )  # fmt: skip
            for ticket in tickets:
                for step in args.steps:
                    try:
                        run = await run_loop(
                            chat, ticket, step, seed, args.max_revisions, Path(scratch)
                        )
                    except Exception as error:  # one run's crash is its row, not the bench's end
                        trace = "".join(traceback.format_exception(error))
                        run = LoopRun(ticket.name, step, seed, False, 0, 0, 0, 0, 0.0, trace)
                        print(f"seed {seed}  {ticket.name} {step}: the loop failed\n{trace}")
                    runs.append(run)
                    write_figures(runs, args, args.path)
                    print(
                        f"seed {seed}  {ticket.name:<20}{step:<18}"
                        f"{'resolved' if run.resolved else 'not resolved':<14}"
                        f"hidden {run.hidden_passed}/{run.hidden_total}  "
                        f"{run.revisions} rev  {run.tokens:,} tokens  {run.seconds:.0f} s"
                        f"  (source {ticket.source_size()[0]:,} lines)",
                        flush=True,
                    )
    print(f"\n{tables(runs, args.steps, [t.name for t in tickets])}")
    return runs


async def main(args: argparse.Namespace) -> list[LoopRun]:
    """The ablation on the local server, or on the offline model to check the bench."""
    if args.model == "offline":
        return await ablate(args, OfflineChatModel())
    settings = get_settings().model_copy(update={"local_model_port": free_port()})
    async with local_server(settings):
        args.base_url = f"http://{settings.local_model_host}:{settings.local_model_port}/v1"
        return await ablate(args, None)


def step_names(text: str) -> list[str]:
    """The step settings of `--steps a,b`, each one `STEPS` knows."""
    names = [name.strip() for name in text.split(",") if name.strip()]
    unknown = [name for name in names if name not in STEPS]
    if unknown or not names:
        raise argparse.ArgumentTypeError(f"unknown steps {unknown}; known: {', '.join(STEPS)}")
    return names


def cli(argv: list[str] | None = None, results_dir: Path = ABLATIONS_DIR) -> int:
    """Entry point of `python -m bench.ablation`."""
    parser = argparse.ArgumentParser(prog="python -m bench.ablation", description=__doc__)
    parser.add_argument("tickets", nargs="*")
    parser.add_argument(
        "--steps", type=step_names, default=list(STEPS), help=f"comma-separated: {', '.join(STEPS)}"
    )
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--temperature", type=float, default=0.0)
    parser.add_argument("--max-revisions", type=int, default=4)
    parser.add_argument("--model", choices=["local", "offline"], default="local")
    parser.add_argument(
        "--report", type=Path, nargs="+", help="print the tables of figures files again"
    )
    parser.add_argument(
        "--show", metavar="TICKET", help="with --report: that ticket's runs, notes and diffs"
    )
    args = parser.parse_args(argv)
    if args.report:
        try:
            runs = read_figures(args.report)
        except FiguresError as err:
            print(f"error: {err}", file=sys.stderr)
            return 2
        if args.show:
            print(run_details([r for r in runs if r.ticket == args.show]))
            return 0
        steps = list(dict.fromkeys(r.step for r in runs))
        print(tables(runs, steps, list(dict.fromkeys(r.ticket for r in runs))))
        return 0
    if args.runs < 1 or args.max_revisions < 1:
        parser.error("--runs and --max-revisions must be at least 1")
    try:
        dev_tickets(args.tickets)
    except TicketError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    args.path = figures_path(results_dir)
    args.commit = commit()  # kept with the figures: what they were measured on
    try:
        asyncio.run(main(args))
    except LocalModelMissingError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    print(f"\nfigures: {args.path}")
    return 0


if __name__ == "__main__":
    sys.exit(cli())
