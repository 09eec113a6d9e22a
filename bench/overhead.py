"""What orchestration costs: one ticket in --auto mode with an instant scripted model, end to end.

Side by side in one run, `--rounds` times after a warm-up round:
  ticketsmith  the ticket workflow on the embedded stack (dev server, worker, emulators);
  langgraph    the same activity calls, recorded from ticketsmith's history, run in sequence
               as a plain LangGraph pipeline with a SQLite checkpointer and no Temporal;
  trivial      a Temporal workflow of as many no-op activities.
Ticketsmith's and the trivial workflow's wall time is split, from their histories, into the time
some activity ran and the time none did (workflow tasks, child starts, the round trips between).
Usage: python -m bench.overhead [--rounds 3]
"""

import argparse
import statistics
import tempfile
import time
from collections.abc import Awaitable
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

from bench.support.figures import CannotMeasureError, Report, run_main
from bench.support.histories import Timing, activity_calls, timing
from bench.support.pipeline import activities_by_name, build_pipeline, decoded, run_pipeline
from bench.support.stack import (
    bench_stack,
    client_for,
    reset_emulators,
    run_ticket,
    scripted_model,
    trivial_worker,
)

KEY = "DEMO-1"


async def timed(work: Awaitable[Any]) -> tuple[float, Any]:
    """Seconds the awaitable took, and its result."""
    started = time.monotonic()
    result = await work
    return time.monotonic() - started, result


async def main() -> int:
    """Measure, print the figures, return the exit code."""
    parser = argparse.ArgumentParser(prog="python -m bench.overhead", description=__doc__)
    parser.add_argument("--rounds", type=int, default=3, help="measured rounds (default 3)")
    args = parser.parse_args()
    report = Report("overhead: one ticket, --auto, instant scripted model")
    model = scripted_model()
    times: dict[str, list[float]] = {"ticketsmith": [], "langgraph": [], "trivial": []}
    splits: dict[str, list[Timing]] = {"ticketsmith": [], "trivial": []}
    try:
        with tempfile.TemporaryDirectory(prefix="bench-overhead-") as tmp:
            async with bench_stack(Path(tmp), model) as stack, AsyncExitStack() as exits:
                settings = stack.settings
                client = await client_for(settings)
                result = await run_ticket(client, settings, KEY)
                if not result.pr_url:
                    raise CannotMeasureError(f"the ticket did not open a pull request: {result}")
                calls = await activity_calls(client, f"ticket-{KEY}")
                model_calls = len(model.calls)
                own = settings.model_copy(update={"data_dir": Path(tmp) / "pipeline"})
                steps = await decoded(client, calls, activities_by_name(own, exits))
                graph = build_pipeline(steps)
                await exits.enter_async_context(trivial_worker(client, settings))
                for round_number in range(args.rounds + 1):
                    await reset_emulators(stack, tickets=2)
                    took, _ = await timed(run_ticket(client, settings, KEY))
                    await reset_emulators(stack, tickets=2)
                    piped, state = await timed(
                        run_pipeline(graph, Path(tmp) / "checkpoints.db", f"round-{round_number}")
                    )
                    if len(state["results"]) != len(steps):
                        raise CannotMeasureError(f"the pipeline ran {len(state['results'])} steps")
                    trivial, _ = await timed(
                        client.execute_workflow(
                            "TrivialWorkflow", len(calls), id=f"trivial-{round_number}",
                            task_queue="trivial",
                        )
                    )  # fmt: skip
                    if round_number:  # round 0 warms caches up
                        for name, value in zip(times, (took, piped, trivial), strict=True):
                            times[name].append(value)
                        splits["ticketsmith"].append(await timing(client, f"ticket-{KEY}"))
                        splits["trivial"].append(await timing(client, f"trivial-{round_number}"))
    finally:
        model.stop()
    ticketsmith, langgraph, trivial = (statistics.median(v) for v in times.values())
    report.note(
        f"{len(calls)} activities, {model_calls} model calls per ticket; "
        f"median of {args.rounds} rounds"
    )
    report.figure("ticketsmith, one ticket end to end", f"{ticketsmith:.2f} s", "< 3 s",
                  ticketsmith < 3)  # fmt: skip
    report.figure("langgraph pipeline, same steps (a)", f"{langgraph:.2f} s")
    report.figure(f"trivial workflow, {len(calls)} activities (b)", f"{trivial:.2f} s")
    ratio_a = ticketsmith / langgraph
    report.figure("ticketsmith / langgraph (a)", f"{ratio_a:.2f}x", "<= 1.5x", ratio_a <= 1.5)
    overhead = ticketsmith - langgraph
    ratio_b = overhead / trivial
    report.figure(
        "(ticketsmith - langgraph) / trivial (b)",
        f"{ratio_b:.2f}x ({overhead:.2f} s of orchestration)",
        "<= 1.2x",
        ratio_b <= 1.2,
    )
    busy = statistics.median(t.busy for t in splits["ticketsmith"])
    idle, trivial_idle = (statistics.median(t.idle for t in splits[n]) for n in splits)
    report.figure("ticketsmith, some activity running (c)", f"{busy:.2f} s")
    report.figure("ticketsmith, no activity running (d)", f"{idle:.2f} s")
    report.figure("trivial workflow, no activity running", f"{trivial_idle:.2f} s")
    report.figure("(c) - (a): activities slower in the worker", f"{busy - langgraph:+.2f} s")
    return report.done()


if __name__ == "__main__":
    run_main(main())
