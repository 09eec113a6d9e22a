"""Scoring a generated project on what landed: its command runs, its tests assert and pass, no
stubs, every module reached, and the prompt's own acceptance script passes. All sandboxed."""

import shutil
import tempfile
from pathlib import Path

from pydantic import BaseModel, Field

from activities.mvp.smoke import smoke_run
from activities.testing.run import run_project_tests
from bench.mvp.prompts import ACCEPTANCE_DIR, BenchPrompt
from graphs.mvp.asserting import is_test_file, weak_tests
from graphs.mvp.project import write_tree
from graphs.mvp.reach import unreached_modules
from graphs.mvp.stubs import stub_functions
from graphs.mvp.usage import Usage, entry_module, inline_code
from integrations.environments.build import Environments
from integrations.git.client import GitWorkspace
from integrations.workspace.commands import run_command

REPOSITORY = "bench-mvp"
TEST_COMMAND = "python -m pytest -q -p no:cacheprovider"
TIMEOUT_S = 180.0
CHECKS = ("runs", "tests", "no_stubs", "reached", "acceptance")


class MvpScore(BaseModel):
    """One prompt's project measured: each check, what the product claimed, time and tokens."""

    name: str
    kind: str
    command: str = ""  # how the product planned the project to be run
    runs: bool = False  # its own command ran and printed (or served) something
    tests: bool = False  # it has tests, each asserts, and they pass
    no_stubs: bool = False
    reached: bool = False  # every module is reached from the entry point or a test
    acceptance: bool = False  # the prompt's script, written in advance, passes
    claimed_working: bool = False  # the product said it passed
    verdict: str = ""
    files: int = 0
    revisions: int = 0
    seconds: float = 0.0
    tokens: int = 0
    notes: list[str] = Field(default_factory=list)

    @property
    def working(self) -> bool:
        """Every check passed."""
        return all(getattr(self, check) for check in CHECKS)

    @property
    def false_success(self) -> bool:
        """The product claimed a working project the checks refute: the worst outcome."""
        return self.claimed_working and not self.working


def fresh_copy(files: dict[str, str], scratch: Path, name: str) -> Path:
    """The project written into a directory of its own."""
    root = scratch / name
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir(parents=True)
    write_tree(root, files)
    return root


async def score_project(
    prompt: BenchPrompt, files: dict[str, str], usage: Usage, environments: Environments
) -> MvpScore:
    """Every check of one project's files, each on a fresh copy."""
    score = MvpScore(name=prompt.name, kind=prompt.kind, command=usage.command, files=len(files))
    if not files:
        score.notes.append("no file was written")
        return score
    with tempfile.TemporaryDirectory(prefix="bench-mvp-") as tmp:
        scratch = Path(tmp)
        tests_dir = fresh_copy(files, scratch, "tests")
        workspace = GitWorkspace(tests_dir, remote_url="")
        report = await run_project_tests(
            environments, workspace, REPOSITORY, TEST_COMMAND, TIMEOUT_S
        )
        weak = [w for p, s in files.items() if is_test_file(p) for w in weak_tests(p, s)]
        has_tests = any(is_test_file(p) for p in files)
        score.tests = report.passed and has_tests and not weak
        score.notes += weak[:5] + ([] if report.passed else [report.output.strip()[-300:]])
        stubs = [s for p, c in files.items() if p.endswith(".py") for s in stub_functions(p, c)]
        score.no_stubs = not stubs
        score.notes += stubs[:5]
        entry = entry_module(usage, list(files))
        code = [c for c in [inline_code(usage)] if c]
        unreached = unreached_modules(files, entry if entry in files else None, code)
        score.reached = not unreached
        score.notes += [f"unreached: {path}" for path in unreached]
        smoke_dir = fresh_copy(files, scratch, "smoke")
        smoke = await smoke_run(environments, smoke_dir, REPOSITORY, usage)
        score.runs = smoke.ran and smoke.passed
        said = smoke.note if smoke.ran else ""
        tail = " | ".join(smoke.output.strip().splitlines()[-2:])
        score.notes.append(": ".join(part for part in (smoke.line(), said, tail) if part)[:400])
        score.acceptance, said = await accept(prompt, fresh_copy(files, scratch, "accept"),
                                              environments)  # fmt: skip
        score.notes.append(f"acceptance: {said}")
    return score


async def accept(prompt: BenchPrompt, root: Path, environments: Environments) -> tuple[bool, str]:
    """Run the prompt's acceptance script in the project, sandboxed, in its environment."""
    target = root / ".acceptance"
    shutil.copytree(ACCEPTANCE_DIR, target, ignore=shutil.ignore_patterns("__pycache__"))
    env = await environments.ensure(root, REPOSITORY)
    if env.error or env.path is None:
        return False, f"no environment: {env.error}"
    result = await run_command(
        root, ["python", f".acceptance/{prompt.acceptance}"], TIMEOUT_S, env_dir=env.path,
        sandbox=environments.sandbox,
    )  # fmt: skip
    lines = result.output.strip().splitlines()
    return result.exit_code == 0 and not result.timed_out, " | ".join(lines[-3:])[:400]
