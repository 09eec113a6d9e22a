"""`make bench-quality MODEL=local`: every benchmark ticket through the workflow, then scored.

Runs the embedded stack on its own data directory and emulator seed (one Jira project and
repository a ticket), answers questions from each ticket's answers, approves the plan, clones
the pushed branch, adds the hidden tests and counts them. `--runs N` does it N times, each
run on a fresh stack whose model gets a seed of its own. `--split dev|test` runs one split
(bench/quality/splits.toml). Prints a table a run (and the rates over the runs), the test
split as one rate, never ticket by ticket, and keeps a results file in bench/quality/results/.
"""

import argparse
import asyncio
import os
import shutil
import sys

import httpx

from bench.quality.drive import TicketRun, run_ticket
from bench.quality.rates import rate_of_test_split, rate_table
from bench.quality.report import results_path, table, write_results
from bench.quality.revisions import log_size, logged_calls, model_steps, steps_line
from bench.quality.setup import prepare_data_dir
from bench.quality.speed import measure_speed, wait_until_idle
from bench.quality.splits import SPLITS, SPLITS_FILE, TEST, load_splits
from bench.quality.tickets import Ticket, TicketError, load_tickets
from bench.support.checkout import commit
from config import ROOT, Settings
from embedded.stack import Stack, StackError
from localmodel.server import base_url, describe_model, server_url

DATA_DIR = ROOT / ".data" / "bench-quality"
REVISION_MINUTES = 6.0
TICKET_MINUTES = 12.0
# The ticket's start and the pull request's opening, outside its time for work.
DEADLINE_MARGIN_MINUTES = 0.5
# The longest a cut ticket's call keeps the server reading before the next ticket starts anyway.
IDLE_WAIT_S = 300.0


def bench_overrides(args: argparse.Namespace) -> dict[str, str]:
    """The worker settings the command line asks for."""
    overrides = {"TICKETSMITH_MODEL_PROVIDER": args.model}
    if args.example_tests is not None:
        overrides["TICKETSMITH_IMPLEMENTATION_EXAMPLE_TESTS"] = str(args.example_tests).lower()
    if args.definition_edits is not None:
        edits = str(args.definition_edits).lower()
        overrides["TICKETSMITH_IMPLEMENTATION_DEFINITION_EDITS"] = edits
    if args.max_revisions is not None:
        overrides["TICKETSMITH_IMPLEMENTATION_MAX_REVISIONS"] = str(args.max_revisions)
    if args.revision_minutes:
        overrides["TICKETSMITH_IMPLEMENTATION_MINUTES"] = str(args.revision_minutes)
    return overrides


def run_settings(args: argparse.Namespace, tickets: list[Ticket], number: int) -> Settings:
    """The settings of run `number`: its own data directory and seed, in the environment the
    stack's processes inherit."""
    probe = Settings()
    overrides = prepare_data_dir(
        DATA_DIR / f"run-{number}", tickets, probe.jira_base_url, work_minutes(args)
    )
    overrides.update(bench_overrides(args))
    overrides["TICKETSMITH_MODEL_SEED"] = str(seed_of(args, number))
    os.environ.update(overrides)
    return Settings(temporal_env_config=False)  # its own stack's dev server


def chosen_tickets(args: argparse.Namespace) -> list[Ticket]:
    """The tickets to run: the named ones, a split's, or every ticket."""
    if args.split and args.tickets:
        raise TicketError("give a split or ticket names, not both")
    tickets = load_tickets(args.tickets or None)
    if not args.split:
        return tickets
    chosen = load_splits().tickets_of(args.split, tickets)
    if not chosen:
        raise TicketError(f"the {args.split} split has no tickets: fill in {SPLITS_FILE}")
    return chosen


def work_minutes(args: argparse.Namespace) -> float | None:
    """The tickets' time for work: the deadline, less what the workflow needs around it."""
    if not args.ticket_minutes:
        return None
    return max(args.ticket_minutes - DEADLINE_MARGIN_MINUTES, args.ticket_minutes / 2)


def seed_of(args: argparse.Namespace, number: int) -> int:
    """The model seed of run `number` (from 1): the first seed, counted up."""
    return int(args.seed) + number - 1


async def start_idle(settings: Settings) -> None:
    """Wait until the model server has finished any call of the ticket before (one cut at its
    deadline goes on reading its prompt), so this ticket's clock starts on an idle server."""
    try:
        waited = await wait_until_idle(server_url(settings), IDLE_WAIT_S)
    except (httpx.HTTPError, TimeoutError) as err:  # the ticket starts anyway, and says so
        print(f"the model server was not idle at the start: {err}", flush=True)
        return
    if waited >= 1:
        print(f"waited {waited:.0f} s for the model server to finish the last call", flush=True)


async def run(args: argparse.Namespace) -> int:
    """Run the tickets one after another, `--runs` times, each run on a fresh stack; report."""
    tickets = chosen_tickets(args)
    testing = args.split == TEST
    shutil.rmtree(DATA_DIR, ignore_errors=True)
    settings = run_settings(args, tickets, 1)
    recorded: dict[str, object] = {
        "description": describe_model(settings),
        "commit": commit(),
        "example_tests": settings.implementation_example_tests,
        "definition_edits": settings.implementation_definition_edits,
        "max_revisions": settings.implementation_max_revisions,
        "revision_minutes": settings.implementation_minutes,
        "ticket_minutes": args.ticket_minutes,
        "sandbox": settings.sandbox,
        "split": args.split,
        "tickets": [t.name for t in tickets],
        "runs": args.runs,
        "seeds": [seed_of(args, n) for n in range(1, args.runs + 1)],
    }
    speeds: list[dict[str, object]] = []
    if args.model == "local":
        recorded["model_speed"] = speeds
    path = results_path(args.model)
    runs: list[TicketRun] = []
    for number in range(1, args.runs + 1):
        if number > 1:
            settings = run_settings(args, tickets, number)
        stack = Stack(settings, reset_emulators=True)
        this_run: list[TicketRun] = []
        try:
            await stack.start()
            print(
                f"run {number} of {args.runs}, seed {settings.model_seed}; "
                f"model: {describe_model(settings)}; {len(tickets)} tickets",
                flush=True,
            )
            if args.model == "local":
                try:
                    speed = await measure_speed(base_url(settings))
                except (httpx.HTTPError, ValueError) as err:  # the run goes on without it
                    print(f"the model's speed was not measured: {err}", flush=True)
                else:
                    speeds.append({"run": number, **speed.model_dump()})
                    print(speed.line(), flush=True)
            for ticket in tickets:
                lines, chars = ticket.source_size()
                print(f"--- {ticket.name} ({ticket.key}): {ticket.summary} "
                      f"[source: {lines} lines, {chars:,} characters]", flush=True)  # fmt: skip
                if args.model == "local":
                    await start_idle(settings)
                deadline = args.ticket_minutes * 60 if args.ticket_minutes else None
                worker_log = stack.log_path(stack.service("worker"))
                since = log_size(worker_log)
                outcome = await run_ticket(settings, ticket, deadline, number)
                logged = logged_calls(worker_log, since)
                calls = logged.get("implement_file")
                if calls is not None and calls.calls:
                    outcome.prompt_tokens_per_call = round(calls.prompt_per_call)
                    outcome.cached_share = round(calls.cached_share, 3)
                outcome.model_steps = model_steps(logged)
                this_run.append(outcome)
                # Kept after every ticket, so a run cut short keeps what it measured.
                write_results([*runs, *this_run], args.model, recorded, path=path)
                # The test split is a rate: no ticket's result is shown on its own.
                done = "done" if testing else table([outcome]).splitlines()[1]
                print(done, flush=True)
                if outcome.model_steps and not testing:
                    print(f"  model by step: {steps_line(outcome.model_steps)}", flush=True)
        finally:
            stack.stop()
        runs += this_run
        if not testing:
            print("\n" + table(this_run) + "\n", flush=True)
    if testing:
        print(f"\n{rate_of_test_split(runs)}\n")
    elif args.runs > 1:
        print(f"over {args.runs} runs\n{rate_table(runs)}\n")
    write_results(runs, args.model, recorded, path=path)
    print(f"results: {path.relative_to(ROOT)}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The command line of `python -m bench.quality`."""
    parser = argparse.ArgumentParser(prog="python -m bench.quality", description=__doc__)
    parser.add_argument("--model", default="local", choices=["local", "openai", "offline"])
    parser.add_argument(
        "--example-tests",
        action=argparse.BooleanOptionalAction,
        help="write the criteria's stated examples as tests (default: the worker setting)",
    )
    parser.add_argument(
        "--definition-edits",
        action=argparse.BooleanOptionalAction,
        help="answer long Python files by changed definitions (default: the worker setting)",
    )
    parser.add_argument("--max-revisions", type=int, help="implementation revisions (default: 15)")
    # Bounded by default: 15 revisions of two to three minutes each on two cores would make a
    # ticket take 40 minutes, and RUNS=3 over every ticket most of a day.
    parser.add_argument(
        "--revision-minutes",
        type=float,
        default=REVISION_MINUTES,
        help="stop revising after this long and open the pull request; 0: no limit "
        f"(default: {REVISION_MINUTES:g})",
    )
    parser.add_argument(
        "--ticket-minutes",
        type=float,
        default=TICKET_MINUTES,
        help="stop a ticket after this long and score it unresolved; 0: no limit "
        f"(default: {TICKET_MINUTES:g})",
    )
    parser.add_argument(
        "--runs", type=int, default=1, help="run every ticket this many times (default: 1)"
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=1,
        help="the model seed of the first run; each further run counts up (default: 1)",
    )
    parser.add_argument(
        "--split",
        choices=SPLITS,
        help="run one split of bench/quality/splits.toml (the test split reports one rate)",
    )
    parser.add_argument("tickets", nargs="*", help="ticket names (default: all)")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of `python -m bench.quality`."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error(f"--runs must be at least 1, not {args.runs}")
    try:
        return asyncio.run(run(args))
    except (StackError, TicketError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    code = main()
    sys.stdout.flush()
    os._exit(code)
