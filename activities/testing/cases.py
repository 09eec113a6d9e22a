"""A test run's cases: pytest asked for junit XML, read back per test, and the import check."""

import shlex
from pathlib import Path

from graphs.schemas import FailedTest, TestReport
from integrations.workspace.junit import CaseResult, read_junit

JUNIT_PATH = ".ticketsmith-junit.xml"
MAX_PASSED_IDS = 500
MAX_FAILED = 25
DETAILS_CHARS = 1500
# Imports each module named on its command line; prints "module<TAB>where<TAB>error" for each
# that fails, where = the checkout's file and line the error was raised in (its last frame).
# A src layout's packages are imported from src/ (`module_name` names them without it), as the
# project's own tests import them once installed or with src on their path.
IMPORT_CHECK = (
    "import importlib, os, sys, traceback\n"
    "root = os.getcwd() + os.sep\n"
    "if os.path.isdir(root + 'src'):\n"
    "    sys.path.insert(1, root + 'src')\n"
    "for name in sys.argv[1:]:\n"
    "    try:\n"
    "        importlib.import_module(name)\n"
    "    except BaseException as err:\n"
    "        last = traceback.format_exception_only(type(err), err)[-1].strip()\n"
    "        frames = [(f.filename, f.lineno) for f in traceback.extract_tb(err.__traceback__)]\n"
    "        if isinstance(err, SyntaxError) and err.filename:\n"
    "            frames.append((err.filename, err.lineno))\n"
    "        mine = [f'{os.path.relpath(f, root)}:{n}' for f, n in frames if f.startswith(root)]\n"
    "        where = mine[-1] if mine else ''\n"
    "        print(name + '\\t' + where + '\\t' + last.replace('\\n', ' '))\n"
)


def with_junit(command: str) -> str:
    """The command asking pytest for a junit XML report (other runners are left as they are)."""
    argv = shlex.split(command)
    if not any(Path(arg).name in ("pytest", "py.test") for arg in argv[:3]):
        return command
    return shlex.join([*argv, f"--junitxml={JUNIT_PATH}", "-o", "junit_family=xunit1"])


def import_check_command(modules: dict[str, str], python: str = "python") -> str:
    """The command that imports every changed module."""
    return shlex.join([python, "-c", IMPORT_CHECK, *modules.values()])


def import_errors(output: str, modules: dict[str, str]) -> dict[str, str]:
    """Changed files that fail to import, with the error: blamed on the changed file the
    error was raised in (a package's broken `__init__.py` fails every module under it), else
    on the module's own file."""
    by_module = {module: path for path, module in modules.items()}
    errors: dict[str, str] = {}
    for line in output.splitlines():
        module, _, rest = line.partition("\t")
        where, _, error = rest.partition("\t") if rest.count("\t") else ("", "", rest)
        if module not in by_module or not error:
            continue
        path, _, number = where.rpartition(":")
        if path in modules:
            errors.setdefault(path, f"{error} (line {number})")
        elif by_module[module] not in errors:
            errors[by_module[module]] = error
    return errors


def failed_test(case: CaseResult) -> FailedTest:
    """A failing case as the graph sees it: bounded details."""
    details = case.details if len(case.details) <= DETAILS_CHARS else case.details[-DETAILS_CHARS:]
    return FailedTest(test_id=case.test_id, file=case.file, message=case.message, details=details)


def with_cases(report: TestReport, cases: list[CaseResult]) -> TestReport:
    """The report with the passed and failed tests of its junit report."""
    failed = [c for c in cases if c.outcome in ("failed", "error")]
    return report.model_copy(
        update={
            "passed_tests": [c.test_id for c in cases if c.outcome == "passed"][:MAX_PASSED_IDS],
            "failed_tests": [failed_test(c) for c in failed[:MAX_FAILED]],
        }
    )


def take_junit(root: Path) -> list[CaseResult]:
    """Read and remove the junit report a run left in the checkout."""
    path = root / JUNIT_PATH
    cases = read_junit(path)
    path.unlink(missing_ok=True)
    return cases
