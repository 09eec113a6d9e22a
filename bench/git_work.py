"""What a ticket's git work costs: clones fetching from the remote, or from one mirror of it.

    python -m bench.git_work [--tickets 10] [--rounds 3]

N tickets at once replay the git steps a ticket's activities take (seven syncs of three
workspaces, three pushes) against the emulators' git hosting over smart HTTP, first
with every workspace cloning and fetching from the remote, then through one mirror, in
alternating rounds so the machine's load hits both alike. CPU is the git processes' (both
sides: the workspaces' git and the hosting's `git http-backend`) plus this process's own
(the hosting's HTTP server and the asyncio loop).
"""

import argparse
import asyncio
import resource
import statistics
import tempfile
import time
from pathlib import Path

from fastapi import FastAPI

from bench.support.figures import Report, run_main
from emulators.git_hosting import SEED_REPOS_DIR, create_git_router, ensure_seed_repository
from harness.serving import serve
from integrations.git.client import GitWorkspace
from integrations.git.mirror import GitMirror, mirror_name

SYNCS = 7  # per ticket, below


async def one_ticket(root: Path, url: str, mirror: GitMirror | None, key: str) -> None:
    """The git steps of one --auto ticket with one QA revision, in the activities' order."""

    def workspace(purpose: str) -> GitWorkspace:
        return GitWorkspace(root / key / purpose, url, token="bench", mirror=mirror)

    branch = f"ticketsmith/{key}-bench"
    git, agents, tests = workspace("git"), workspace("agents"), workspace("agent-tests")
    await git.sync(branch, "main")  # prepare_repository
    await git.push(branch)
    await agents.sync(branch, "main")  # analyse_codebase
    await agents.sync(branch, "main")  # generate_plan's code tool
    await git.commit_and_push(branch, "main", {f"plans/{key}.md": "# Plan\n"}, "Plan")
    await agents.sync(branch, "main")  # implement_changes
    await tests.sync(branch, "main")  # its tester, once
    await git.commit_and_push(branch, "main", {f"calc/{key.lower()}.py": "X = 1\n"}, "Change")


def cpu_seconds() -> tuple[float, float]:
    """CPU used so far by finished child processes and by this process."""
    kids, me = (
        resource.getrusage(resource.RUSAGE_CHILDREN),
        resource.getrusage(resource.RUSAGE_SELF),
    )
    return kids.ru_utime + kids.ru_stime, me.ru_utime + me.ru_stime


async def one_round(scratch: Path, url: str, tickets: int, mirrored: bool) -> tuple[float, ...]:
    """Wall seconds, git CPU seconds, own CPU seconds and remote fetches of one round."""
    mirror = GitMirror(scratch / "mirrors" / mirror_name(url), url, "bench") if mirrored else None
    kids, me = cpu_seconds()
    began = time.monotonic()
    keys = [f"{scratch.name.upper()}-{n}" for n in range(tickets)]
    await asyncio.gather(*(one_ticket(scratch / "workspaces", url, mirror, k) for k in keys))
    wall = time.monotonic() - began
    kids_after, me_after = cpu_seconds()
    fetches = mirror.fetches if mirror else tickets * SYNCS
    return wall, kids_after - kids, me_after - me, float(fetches)


async def main() -> int:
    """Measure both ways, print medians."""
    parser = argparse.ArgumentParser(prog="python -m bench.git_work", description=__doc__)
    parser.add_argument("--tickets", type=int, default=10, help="tickets at once (default 10)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of each (default 3)")
    args = parser.parse_args()
    report = Report("git work: N tickets' clones and fetches, from the remote or a mirror")
    report.note(
        f"{args.tickets} tickets at once, {SYNCS} syncs and 3 pushes each; median of {args.rounds}"
    )
    with tempfile.TemporaryDirectory(prefix="bench-git-") as tmp:
        repos = Path(tmp) / "repos"
        ensure_seed_repository(repos, "demo", "calc", SEED_REPOS_DIR / "calc")
        app = FastAPI()
        app.include_router(create_git_router(repos))
        with serve(app) as base:
            url = f"{base}/demo/calc.git"
            rounds: dict[str, list[tuple[float, ...]]] = {"remote": [], "mirror": []}
            for n in range(args.rounds):
                for way in rounds:
                    scratch = Path(tmp) / f"{way}{n}"
                    measured = await one_round(scratch, url, args.tickets, way == "mirror")
                    rounds[way].append(measured)
                    wall, kids, me, _ = measured
                    report.note(
                        f"round {n + 1} from the {way}: {wall:.2f} s, CPU {kids:.2f} + {me:.2f} s"
                    )
    for way, runs in rounds.items():
        wall, kids, me, fetches = (statistics.median(column) for column in zip(*runs, strict=True))
        name = f"from the {way}"
        report.figure(f"{name}: wall", f"{wall:.2f} s")
        report.figure(f"{name}: CPU, git / this process", f"{kids:.2f} s / {me:.2f} s")
        report.figure(f"{name}: remote fetches and clones", f"{fetches:.0f}")
    return report.done()


if __name__ == "__main__":
    run_main(main())
