"""`make bench-mvp MODEL=local`: every MVP prompt through the builder on the embedded stack, each
project scored on what landed in output/bench-mvp/<prompt>/ (its command runs, its tests
assert and pass, no stubs, every module reached, the prompt's acceptance script passes).

Prints a row a prompt, the rate of working projects and the false successes (a project the
product called passed that the checks refute), and keeps a results file in bench/mvp/results/.
"""

import argparse
import asyncio
import json
import os
import shutil
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from temporalio.client import WorkflowFailureError
from temporalio.service import RPCError

from bench.mvp.prompts import BenchPrompt, PromptError, load_prompts
from bench.mvp.scoring import CHECKS, MvpScore, score_project
from bench.support.checkout import commit
from cli.graphs.runs import checked_definition, start_graph
from config import ROOT, Settings
from embedded.stack import Stack, StackError
from graphs.mvp.manager import ManagerDecision
from graphs.mvp.project import slugify, write_tree
from graphs.mvp.usage import Usage
from integrations.environments.build import Environments
from integrations.workspace.sandbox import sandbox_from
from localmodel.server import describe_model
from workflows.graph.messages import GraphStatus

DATA_DIR = ROOT / ".data" / "bench-mvp"
OUTPUT_DIR = ROOT / "output" / "bench-mvp"
RESULTS_DIR = Path(__file__).resolve().parent / "results"
PROMPT_MINUTES = 15.0
POLL_S = 2.0


def bench_settings(model: str, seed: int) -> Settings:
    """Settings of the bench's own stack: its own data directory, the chosen model."""
    shutil.rmtree(DATA_DIR, ignore_errors=True)
    DATA_DIR.mkdir(parents=True)
    os.environ.update(
        {
            "TICKETSMITH_DATA_DIR": str(DATA_DIR),
            "TICKETSMITH_MODEL_PROVIDER": model,
            "TICKETSMITH_MODEL_SEED": str(seed),
        }
    )
    return Settings(temporal_env_config=False)


async def build(settings: Settings, prompt: BenchPrompt, minutes: float) -> dict[str, Any]:
    """Run the MVP graph on the prompt until it ends or its time is up; the state it reached."""
    definition = checked_definition("mvp")
    slug = slugify(prompt.name)
    inputs = {"prompt": prompt.prompt.strip(), "slug": slug}
    _, handle = await start_graph(settings, definition, inputs, slug)
    deadline = time.monotonic() + minutes * 60
    result_task = asyncio.ensure_future(handle.result())
    state: dict[str, Any] = {}
    tokens = 0
    while not result_task.done() and time.monotonic() < deadline:
        await asyncio.wait([result_task], timeout=POLL_S)
        try:
            current = await handle.query("status", result_type=GraphStatus)
        except RPCError:
            continue
        state, tokens = current.state, current.tokens
    if not result_task.done():
        print(f"  {prompt.name}: cut after {minutes:g} min; scored as it stood", flush=True)
        await handle.cancel()
        result_task.cancel()
        return {"state": state, "tokens": tokens, "cut": True, "message": "cut at its deadline"}
    try:
        result = result_task.result()
    except WorkflowFailureError as err:
        return {"state": state, "tokens": tokens, "cut": False, "message": f"failed: {err.cause}"}
    return {"state": result.state, "tokens": result.tokens, "cut": False, "message": result.message}


async def run_prompt(
    settings: Settings, prompt: BenchPrompt, minutes: float, environments: Environments
) -> MvpScore:
    """Build one prompt's project, write it to output/, score it."""
    started = time.monotonic()
    built = await build(settings, prompt, minutes)
    seconds = time.monotonic() - started
    state = built["state"]
    project = state.get("project") or {}
    files = project.get("files") or {}
    target = OUTPUT_DIR / prompt.name
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True)
    write_tree(target, files)
    manager = ManagerDecision.model_validate(state.get("manager") or {"development": False,
                                                                     "reason": ""})  # fmt: skip
    score = await score_project(prompt, files, Usage.of(manager), environments)
    qa = state.get("qa") or {}
    score.claimed_working = bool(qa.get("passed"))
    score.verdict = str(qa.get("verdict") or built["message"])[:300]
    score.revisions = int(project.get("revision") or 0)
    score.seconds = round(seconds, 1)
    score.tokens = int(built["tokens"])
    return score


def table(scores: list[MvpScore]) -> str:
    """A row a prompt and the totals."""
    header = f"{'prompt':24} {'kind':34} " + " ".join(f"{c:>10}" for c in CHECKS)
    header += f" {'working':>8} {'claimed':>8} {'revs':>5} {'seconds':>8} {'tokens':>8}"
    rows = [header]
    for s in scores:
        marks = " ".join(f"{'yes' if getattr(s, c) else 'no':>10}" for c in CHECKS)
        rows.append(
            f"{s.name:24} {s.kind:34} {marks} {'yes' if s.working else 'no':>8} "
            f"{'yes' if s.claimed_working else 'no':>8} {s.revisions:>5} {s.seconds:>8.0f} "
            f"{s.tokens:>8,}"
        )
    working = sum(s.working for s in scores)
    false = sum(s.false_success for s in scores)
    checks = sum(getattr(s, c) for s in scores for c in CHECKS)
    rows.append(
        f"working: {working} of {len(scores)}; checks met: {checks} of "
        f"{len(scores) * len(CHECKS)}; false successes: {false}"
    )
    return "\n".join(rows)


def write_results(scores: list[MvpScore], recorded: dict[str, Any], path: Path) -> None:
    """Keep the scores (after every prompt, so a run cut short keeps what it measured)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    data = {
        **recorded,
        "finished_at": datetime.now(UTC).isoformat(),
        "working": sum(s.working for s in scores),
        "false_successes": sum(s.false_success for s in scores),
        "prompts": [
            {**s.model_dump(), "working": s.working, "false_success": s.false_success}
            for s in scores
        ],
    }
    path.write_text(json.dumps(data, indent=2) + "\n")


async def run(args: argparse.Namespace) -> int:
    """Start the stack, build and score every prompt, report."""
    prompts = load_prompts(args.prompts or None)
    settings = bench_settings(args.model, args.seed)
    environments = Environments(DATA_DIR / "score-envs", sandbox_from(settings))
    path = RESULTS_DIR / f"{datetime.now(UTC):%Y%m%dT%H%M%SZ}-{args.model}.json"
    recorded = {
        "commit": commit(),
        "model": describe_model(settings),
        "seed": args.seed,
        "prompt_minutes": args.prompt_minutes,
        "sandbox": settings.sandbox,
    }
    stack = Stack(settings, reset_emulators=True)
    scores: list[MvpScore] = []
    try:
        await stack.start()
        print(f"model: {recorded['model']}; {len(prompts)} prompts", flush=True)
        for prompt in prompts:
            print(f"--- {prompt.name} ({prompt.kind})", flush=True)
            scores.append(await run_prompt(settings, prompt, args.prompt_minutes, environments))
            print(table(scores[-1:]).splitlines()[1], flush=True)
            for note in scores[-1].notes:
                print(f"    {note[:200]}", flush=True)
            write_results(scores, recorded, path)
    finally:
        stack.stop()
    print("\n" + table(scores))
    print(f"results: {path.relative_to(ROOT)}; projects in {OUTPUT_DIR.relative_to(ROOT)}/")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Entry point of `python -m bench.mvp`."""
    parser = argparse.ArgumentParser(prog="python -m bench.mvp", description=__doc__)
    parser.add_argument("--model", default="local", choices=["local", "openai", "offline"])
    parser.add_argument("--seed", type=int, default=1, help="the model's seed (default: 1)")
    parser.add_argument(
        "--prompt-minutes",
        type=float,
        default=PROMPT_MINUTES,
        help=f"cut a prompt's build after this long and score it (default: {PROMPT_MINUTES:g})",
    )
    parser.add_argument("prompts", nargs="*", help="prompt names (default: all)")
    args = parser.parse_args(argv)
    try:
        return asyncio.run(run(args))
    except (StackError, PromptError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    code = main()
    sys.stdout.flush()
    os._exit(code)
