"""Whether a generated project is what a user would call working, checked without a model:
its command runs, its tests test, no stubs, every module reached, an interface that fits."""

from pathlib import PurePosixPath

from pydantic import BaseModel, Field

from graphs.mvp.asserting import is_test_file, weak_tests
from graphs.mvp.reach import desktop_windows, exercised_names, promised_name, unreached_modules
from graphs.mvp.stubs import stub_functions
from graphs.mvp.usage import Usage, entry_module, inline_code
from graphs.schemas import Contract


class SmokeRun(BaseModel):
    """The project's own command, run once in the sandbox as a first user would."""

    command: str
    ran: bool = True  # False: nothing could be run (no command, or a desktop window)
    passed: bool = False
    exit_code: int | None = None
    output: str = ""
    note: str = ""

    def line(self) -> str:
        """The run in one line."""
        if not self.ran:
            return f"smoke run: not run ({self.note})"
        verdict = "passed" if self.passed else f"failed (exit code {self.exit_code})"
        return f"smoke run `{self.command}`: {verdict}"


class Finding(BaseModel):
    """One way the project falls short, and the file to fix for it ("" for none)."""

    path: str
    problem: str


class ProjectFindings(BaseModel):
    """Everything the checks found; a project is working when they found nothing."""

    findings: list[Finding] = Field(default_factory=list)

    @property
    def working(self) -> bool:
        """Nothing falls short."""
        return not self.findings

    def problems(self) -> list[str]:
        """Each shortfall in one line."""
        return [finding.problem for finding in self.findings]

    def fixes(self) -> list[dict[str, str]]:
        """The shortfalls as QA's fixes: the file to change and what to do."""
        return [{"path": f.path, "instruction": f.problem} for f in self.findings if f.path]


def check_project(
    files: dict[str, str],
    usage: Usage,
    contracts: list[Contract],
    smoke: SmokeRun | None,
    stray_files: list[str],
) -> ProjectFindings:
    """Every check of a project's files, its smoke run and what its tests left behind."""
    entry = entry_module(usage, list(files))
    found: list[Finding] = []
    tests = {path: source for path, source in files.items() if is_test_file(path)}
    if not tests:
        found.append(Finding(path="tests/test_main.py", problem="the project has no test file"))
    for path, source in sorted(tests.items()):
        found += [Finding(path=path, problem=problem) for problem in weak_tests(path, source)]
    for path, source in sorted(files.items()):
        if path.endswith(".py"):
            found += [Finding(path=path, problem=p) for p in stub_functions(path, source)]
    code = [c for c in [inline_code(usage)] if c]
    if entry and entry not in files:
        found.append(Finding(path=entry, problem=f"`{usage.command}` starts {entry}, not written"))
    for path in unreached_modules(files, entry if entry in files else None, code):
        # The fix is where it should be used: the entry point imports it, or a test tests it.
        user = entry if entry in files else test_file_for(path, files)
        problem = f"{path} is reached neither from the entry point nor a test"
        found.append(Finding(path=user or path, problem=problem))
    if usage.interface != "desktop":
        found += [
            Finding(
                path=problem.split(" ", 1)[0],
                problem=f"{problem}, where a command line or "
                "a local web page is what the request's users can run",
            )  # fmt: skip
            for problem in desktop_windows(files)
        ]
    found += untested_contracts(files, contracts)
    for path in stray_files:
        problem = f"the tests wrote {path} into the project, not into a temporary directory"
        found.append(Finding(path=next(iter(sorted(tests)), path), problem=f"{problem} (tmp_path)"))
    if smoke is not None and smoke.ran and not smoke.passed:
        last = smoke.output.strip().splitlines()[-3:] or [smoke.note]
        found.append(
            Finding(
                path=entry or next(iter(files), "README.md"),
                problem=f"`{smoke.command}` failed (exit code {smoke.exit_code}): "
                + " | ".join(last),
            )  # fmt: skip
        )
    if not usage.command:
        found.append(Finding(path=entry or "README.md", problem="no command runs the project"))
    return ProjectFindings(findings=found)


def untested_contracts(files: dict[str, str], contracts: list[Contract]) -> list[Finding]:
    """The plan's promised functions that no checking test reaches by its calls."""
    exercised = exercised_names(files)
    missing = []
    for contract in contracts:
        name = promised_name(contract.signature)
        if name and name not in exercised and not is_test_file(contract.path):
            test = test_file_for(contract.path, files)
            missing.append(
                Finding(
                    path=test,
                    problem=f"no test checks `{contract.signature.strip()}` "
                    f"({contract.path}): {contract.behaviour.strip()[:160]}",
                )  # fmt: skip
            )
    return missing


def test_file_for(path: str, files: dict[str, str]) -> str:
    """The test file of a module: the one named after it, else the first, else a new one."""
    stem = PurePosixPath(path).stem
    tests = sorted(p for p in files if is_test_file(p))
    named = [p for p in tests if stem in PurePosixPath(p).stem]
    return (named or tests or [f"tests/test_{stem}.py"])[0]
