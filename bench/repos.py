"""Real repositories, set up and tested as a ticket's baseline run, against a reference run.

    python -m bench.repos [NAME==VERSION ...]     (make bench-repos REPOS="NAME==VERSION ...")

Each project is its source distribution from the package index this machine is configured
with (cached under `.data/bench-repos/sdists`), made into a git repository. Then:
- ticketsmith: the environment detection, set-up and the default test command
  (`python -m pytest -q`) in the sandbox, exactly as a ticket's test run does;
- reference: a plain virtual environment, the project installed as its own docs say
  (`pip install -e .` with its test extra when it has one, and the test tools its docs list),
  then the same pytest command, unsandboxed.
Before the set-up, the product's analysis of the fresh repository (the codebase scan, index and
repository summary, exactly as a ticket's first step runs them) with the configured model
(TICKETSMITH_MODEL_PROVIDER; `--no-analysis` leaves it out).
One row per project: analysis seconds and model tokens, set-up seconds, tests passed and failed
by both, and whether ours matches (at least the reference's passes, no more failures; `n/a` when
the reference passes no test: none in the source distribution, or its plain environment cannot
run them); the last lines are `matched N of M` over the projects compared, and those not
compared.
"""

import argparse
import asyncio
import shlex
import subprocess
import sys
import tarfile
import tempfile
import time
import tomllib
import zipfile
from dataclasses import dataclass
from pathlib import Path

from langchain_core.language_models import BaseChatModel

from activities.testing.cases import take_junit, with_junit
from bench.support.research_model import ModelUnavailableError, bench_model
from config import ROOT, get_settings
from graphs.analysis import analyse_repository
from graphs.schemas import TicketContext
from integrations.environments.build import Environments, uv_binary
from integrations.environments.indexes import package_sources
from integrations.git.client import GitWorkspace
from integrations.workspace.junit import CaseResult
from integrations.workspace.sandbox import Limits, Sandbox
from localmodel.provider import resolved_model_provider

CACHE = ROOT / ".data" / "bench-repos"
TEST_COMMAND = "python -m pytest -q -p no:cacheprovider"
TIMEOUT_S = 900.0
LIMITS = Limits(memory_mb=4096, processes=512, cpu_seconds=900, output_bytes=8 << 20)
# What the analysis is asked about: a ticket on the whole project, naming none of its files.
BENCH_TICKET = TicketContext(
    key="BENCH-1",
    summary="Make the project's public functions report bad arguments clearly",
    description="Calls with arguments of the wrong type should raise an error naming the argument.",
)


@dataclass(frozen=True)
class Project:
    """A pinned source distribution and what its docs install to run its tests."""

    pin: str
    kind: str
    reference: tuple[str, ...] = ("pytest",)


PROJECTS = (
    Project("six==1.17.0", "setup.py, one flat module"),
    Project("click==8.1.8", "flit, src layout", ("-r", "requirements/tests.txt")),
    Project("structlog==25.4.0", "hatch, src layout, test group", ("--group", "tests")),
    Project("packaging==24.2", "flit, src layout", ("pytest", "pretend")),
    Project("attrs==24.2.0", "hatch, src layout, tests extra"),
    Project("more-itertools==10.5.0", "flit, flat package"),
    Project("toolz==1.0.0", "setup.py, tests inside the package"),
    Project("markupsafe==3.0.2", "setuptools, optional C speed-ups, src layout"),
    Project("cleo==2.1.0", "poetry, src layout", ("pytest", "pytest-mock")),
    Project("pygments==2.18.0", "hatch, 300+ modules", ("pytest", "wcag-contrast-ratio")),
)


@dataclass
class Outcome:
    """One side's run: set-up time, counts, or why there are none."""

    setup_s: float = 0.0
    passed: int = 0
    failed: int = 0
    note: str = ""


@dataclass(frozen=True)
class AnalysisRun:
    """The product's analysis of one repository: seconds and model tokens."""

    seconds: float
    tokens: int

    def columns(self) -> str:
        """The row's analysis columns."""
        return f"{self.seconds:>10.1f} {self.tokens:>7}"


NOT_ANALYSED = " " * 10 + " " + " " * 7


def sdist(pin: str) -> Path:
    """The project's source distribution, downloaded once."""
    folder = CACHE / "sdists" / pin.replace("==", "-")
    found = sorted(folder.glob("*.tar.gz")) + sorted(folder.glob("*.zip"))
    if found:
        return found[0]
    folder.mkdir(parents=True, exist_ok=True)
    argv = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--no-binary",
            ":all:", "--dest", str(folder), pin]  # fmt: skip
    result = subprocess.run(argv, capture_output=True, text=True, timeout=600, check=False)
    found = sorted(folder.glob("*.tar.gz")) + sorted(folder.glob("*.zip"))
    if result.returncode != 0 or not found:
        raise RuntimeError(f"no source distribution of {pin}: {result.stderr.strip()[-300:]}")
    return found[0]


def repository(archive: Path, into: Path) -> Path:
    """The unpacked source distribution as a git repository with one commit."""
    if archive.suffix == ".zip":
        with zipfile.ZipFile(archive) as opened:
            opened.extractall(into)
    else:
        with tarfile.open(archive) as opened:
            opened.extractall(into, filter="data")
    (root,) = [p for p in into.iterdir() if p.is_dir()]
    for argv in (["git", "init", "-q"], ["git", "add", "-A"],
                 ["git", "-c", "user.name=bench", "-c", "user.email=bench@example.com",
                  "commit", "-q", "-m", "source distribution"]):  # fmt: skip
        subprocess.run(argv, cwd=root, check=True, capture_output=True)
    return root


async def analysis_run(model: BaseChatModel, checkout: Path) -> AnalysisRun:
    """The analysis a ticket's first step runs, timed, on the repository as cloned."""
    began = time.monotonic()
    analysis = await analyse_repository(model, checkout, BENCH_TICKET)
    return AnalysisRun(time.monotonic() - began, analysis.tokens)


async def ticketsmith_run(checkout: Path, name: str, scratch: Path) -> Outcome:
    """Set-up and the test command exactly as a ticket's test run does them."""
    sandbox = Sandbox(mode="bwrap", limits=LIMITS)
    environments = Environments(scratch / "environments", sandbox, TIMEOUT_S)
    began = time.monotonic()
    env = await environments.ensure(checkout, f"bench/{name}")
    setup = time.monotonic() - began
    if env.error:
        return Outcome(setup_s=setup, note=env.error.splitlines()[0][:80])
    # The ticket's own run (activities.testing.run) keeps the first 500 test names; count them all.
    command = with_junit(TEST_COMMAND)
    workspace = GitWorkspace(checkout, str(checkout))
    result = await workspace.run_command(command, TIMEOUT_S, env_dir=env.path, sandbox=sandbox)
    cases = take_junit(checkout)
    return outcome(setup, cases, result.output)


def outcome(setup: float, cases: list[CaseResult], output: str) -> Outcome:
    """Counts from the junit cases; the output's end when there are none."""
    passed = sum(case.outcome == "passed" for case in cases)
    failed = sum(case.outcome in ("failed", "error") for case in cases)
    return Outcome(setup, passed, failed, "" if cases else output.strip()[-80:])


def reference_run(checkout: Path, project: Project, scratch: Path) -> Outcome:
    """A plain environment as the project's docs say, then the same pytest command."""
    venv = scratch / "reference-venv"
    uv = str(uv_binary())
    env = {
        **package_sources().env,
        "UV_INDEX_STRATEGY": "unsafe-best-match",
        "PATH": "/usr/bin:/bin",
    }
    began = time.monotonic()
    subprocess.run([uv, "venv", "--quiet", str(venv)], check=True, capture_output=True, env=env)
    install = [uv, "pip", "install", "--quiet", "--python", str(venv / "bin" / "python"),
               "-e", f".{test_extra(checkout)}", *project.reference]  # fmt: skip
    done = subprocess.run(install, cwd=checkout, capture_output=True, text=True, env=env,
                          timeout=TIMEOUT_S, check=False)  # fmt: skip
    setup = time.monotonic() - began
    if done.returncode != 0:
        return Outcome(setup_s=setup, note=f"install failed: {done.stderr.strip()[-80:]}")
    argv = [str(venv / "bin" / "python"), *shlex.split(with_junit(TEST_COMMAND))[1:]]
    tests = subprocess.run(argv, cwd=checkout, capture_output=True, text=True,
                           timeout=TIMEOUT_S, check=False)  # fmt: skip
    return outcome(setup, take_junit(checkout), tests.stdout)


def test_extra(checkout: Path) -> str:
    """`[test]` (or tests, testing) when the project declares such an extra."""
    try:
        data = tomllib.loads((checkout / "pyproject.toml").read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError):
        return ""
    extras = data.get("project", {}).get("optional-dependencies", {})
    named = [e for e in ("test", "tests", "testing") if e in extras]
    return f"[{named[0]}]" if named else ""


async def measure(
    project: Project, model: BaseChatModel | None
) -> tuple[AnalysisRun | None, Outcome, Outcome]:
    """The analysis and both runs of one project, each in a fresh copy of its repository."""
    archive = sdist(project.pin)
    with tempfile.TemporaryDirectory(prefix="bench-repos-") as scratch:
        ours_dir, theirs_dir = Path(scratch) / "ours", Path(scratch) / "theirs"
        ours_dir.mkdir()
        theirs_dir.mkdir()
        name = project.pin.split("==")[0]
        checkout = repository(archive, ours_dir)
        analysed = None if model is None else await analysis_run(model, checkout)
        ours = await ticketsmith_run(checkout, name, Path(scratch))
        theirs = reference_run(repository(archive, theirs_dir), project, Path(scratch))
    return analysed, ours, theirs


def verdict(ours: Outcome, theirs: Outcome) -> str:
    """`yes` when ours runs the reference's passing tests, with no more failures (an
    environment with more of the optional test tools runs tests the reference skips); `n/a`
    when the reference passes no test (none in the source distribution, or its plain
    environment cannot run them), so there is nothing to match."""
    if theirs.passed == 0:
        return "n/a"
    return "yes" if ours.passed >= theirs.passed and ours.failed <= theirs.failed else "no"


async def main(pins: list[str], analyse: bool) -> int:
    """Print one row per project and how many matched their reference."""
    if not analyse:
        return await compare(pins, None)
    settings = get_settings()
    try:
        provider = resolved_model_provider(settings)
        async with bench_model(provider, settings, CACHE / "logs") as chosen:
            print(f"analysis model: {chosen.description}")
            return await compare(pins, chosen.model)
    except ModelUnavailableError as err:
        print(f"the analysis cannot run: {err} (or pass --no-analysis)", file=sys.stderr)
        return 2


async def compare(pins: list[str], model: BaseChatModel | None) -> int:
    """One row per project: the analysis, set-up and tests against the reference."""
    projects = [next((p for p in PROJECTS if p.pin == pin), Project(pin, "given")) for pin in pins]
    print(
        f"{'project':<24} {'kind':<40} {'analysis s':>10} {'tokens':>7} {'set-up s':>8} "
        f"{'ours':>11} {'reference':>11}  match"
    )
    matched = compared = 0
    apart: list[str] = []
    for project in projects or PROJECTS:
        try:
            analysed, ours, theirs = await measure(project, model)
        except (RuntimeError, subprocess.SubprocessError, OSError) as err:
            print(f"{project.pin:<24} could not be measured: {err}")
            apart.append(f"{project.pin} could not be measured")
            continue
        found = verdict(ours, theirs)
        if found == "n/a":
            why = "no test passed in either" if not ours.passed else "the reference passes none"
            apart.append(f"{project.pin}: {why}")
        compared += found != "n/a"
        matched += found == "yes"
        print(
            f"{project.pin:<24} {project.kind[:40]:<40} "
            f"{analysed.columns() if analysed else NOT_ANALYSED} {ours.setup_s:>8.1f} "
            f"{ours.passed:>5}/{ours.failed:<5} {theirs.passed:>5}/{theirs.failed:<5}  "
            f"{found}{'  ' + ours.note if found != 'yes' and ours.note else ''}"
            f"{'  reference: ' + theirs.note if theirs.note else ''}"
        )
    print(f"matched {matched} of {compared} (passed/failed, ours and reference)")
    if apart:
        print(f"not compared ({len(apart)}): " + "; ".join(apart))
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pins", nargs="*", help="NAME==VERSION source distributions to run")
    parser.add_argument(
        "--no-analysis", action="store_true", help="compare set-up and tests only, no model"
    )
    args = parser.parse_args()
    sys.exit(asyncio.run(main(args.pins, analyse=not args.no_analysis)))
