"""Real-code tickets from a project file: the ticket's code, the hidden tests its change makes
fail (computed by running the project's tests), the visible rest, and the reference."""

import shutil
import tempfile
from pathlib import Path

from pydantic import BaseModel

from bench.quality.realcode.changes import apply_changes
from bench.quality.realcode.hidden_tests import FunctionRef, function_of, split_tests
from bench.quality.realcode.layout import (
    TICKET_FILE,
    Manifest,
    checksum,
    pyproject,
    ticket_files,
    ticket_toml,
)
from bench.quality.realcode.sources import (
    Place,
    Project,
    RealTicket,
    SourceError,
    fetch_sdist,
    unpack,
)
from bench.quality.scoring import run_pytest, score_checkout
from bench.quality.tickets import TICKETS_DIR, copy_tree, load_ticket
from integrations.workspace.junit import CaseResult

MAX_HIDDEN = 12
MAX_SOURCE_LINES = 400
FAILING = ("failed", "error")


class Generated(BaseModel):
    """One ticket written: its name, its code's size and its hidden tests."""

    name: str
    lines: int
    chars: int
    hidden: list[str]

    def line(self) -> str:
        """The ticket as the generator prints it."""
        size = f"{self.lines} lines, {self.chars:,} characters of modules"
        warn = f" (over {MAX_SOURCE_LINES} lines)" if self.lines > MAX_SOURCE_LINES else ""
        return f"{self.name}: {size}{warn}; {len(self.hidden)} hidden tests"


class Sources(BaseModel):
    """A project's files read from its unpacked sdist, by repository path."""

    modules: dict[str, str]
    tests: dict[str, bytes]


def read_sources(project: Project, top: Path) -> Sources:
    """The listed modules and test files of the unpacked sdist (a folder: all its files)."""

    def files(places: list[Place]) -> dict[str, bytes]:
        found: dict[str, bytes] = {}
        for place in places:
            path = top / place.path
            if path.is_file():
                found[place.target] = path.read_bytes()
            elif path.is_dir():
                inside = (p for p in path.rglob("*") if p.is_file())
                for inner in sorted(p for p in inside if "__pycache__" not in p.parts):
                    found[f"{place.target}/{inner.relative_to(path)}"] = inner.read_bytes()
            else:
                raise SourceError(
                    f"{project.path}: {place.path!r} is not in {project.source.sdist}; "
                    "paths are relative to the unpacked sdist without its top folder"
                )
        return found

    modules = files(project.source.modules)
    return Sources(
        modules={k: v.decode() for k, v in modules.items()}, tests=files(project.source.tests)
    )


def write_files(root: Path, files: dict[str, str] | dict[str, bytes]) -> None:
    """Write files by relative path under `root`."""
    for relative, content in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, str):
            path.write_text(content)
        else:
            path.write_bytes(content)


def test_files(sources: Sources) -> list[str]:
    """The Python test modules among the test files (conftest.py and data left out)."""
    return sorted(
        p
        for p in sources.tests
        if (p.endswith(".py") and Path(p).name.startswith("test")) or p.endswith("_test.py")
    )


def test_dirs(sources: Sources) -> list[str]:
    """The folders holding the test modules, for pytest's testpaths."""
    return sorted({str(Path(p).parent) for p in test_files(sources)})


def run_tests(checkout: Path, sources: Sources, where: str) -> list[CaseResult]:
    """The project's tests run in a checkout; a collection error is an error."""
    run = run_pytest(checkout, *test_files(sources))
    if run.exit_code not in (0, 1) or not run.cases:
        raise SourceError(
            f"{where}: the project's tests did not run (pytest exit {run.exit_code}); list test "
            f"files that need only pytest and the modules:\n{run.output}"
        )
    return run.cases


def repository(project: Project, sources: Sources, modules: dict[str, str], target: Path) -> None:
    """A repository of the given modules, the project's tests and the generated pyproject."""
    write_files(target, {**sources.modules, **modules})
    write_files(target, sources.tests)
    (target / "pyproject.toml").write_text(pyproject(project, test_dirs(sources)))


def outcomes(cases: list[CaseResult], sources: Sources) -> dict[tuple[str, FunctionRef], bool]:
    """Each test function's outcome by file: passed only when every case of it passed."""
    passed: dict[tuple[str, FunctionRef], bool] = {}
    for case in cases:
        text = sources.tests.get(case.file, b"").decode()
        key = (case.file, function_of(case, text))
        passed[key] = passed.get(key, True) and case.outcome not in FAILING
    return passed


def hidden_of(
    project: Project, ticket: RealTicket, original: list[CaseResult], changed: list[CaseResult],
    sources: Sources,
) -> dict[str, set[FunctionRef]]:  # fmt: skip
    """The tests that fail on the ticket's code and pass on the original, by file."""
    before, after = outcomes(original, sources), outcomes(changed, sources)
    broken = sorted(f"{f}::{t}" for (f, t), ok in before.items() if not ok)
    if broken:
        raise SourceError(
            f"{project.path}: tests fail on the original code with only pytest installed: "
            f"{broken}; list test files that need nothing else"
        )
    hidden: dict[str, set[FunctionRef]] = {}
    for (file, test), ok in after.items():
        if not ok:
            hidden.setdefault(file, set()).add(test)
    count = sum(len(tests) for tests in hidden.values())
    if not 1 <= count <= MAX_HIDDEN:
        raise SourceError(
            f"{project.path}: ticket {ticket.name}: its changes make {count} tests fail; a "
            f"ticket needs 1 to {MAX_HIDDEN}: "
            + ("alter a behaviour the tests cover" if not count else "make a smaller change")
        )
    return hidden


def hidden_name(path: str) -> str:
    """The hidden tests' file name for a test file (never the name of a visible one)."""
    stem = Path(path).stem
    return f"{stem}_hidden.py" if stem.startswith("test") else f"test_{stem}_hidden.py"


def write_ticket(
    project: Project, ticket: RealTicket, sources: Sources, hidden: dict[str, set[FunctionRef]],
    changed: dict[str, str], root: Path,
) -> None:  # fmt: skip
    """The ticket directory: repo/, hidden/, reference/ and ticket.toml with its manifest."""
    shutil.rmtree(root, ignore_errors=True)
    repository(project, sources, changed, root / "repo")
    for path, tests in sorted(hidden.items()):
        visible, kept = split_tests(sources.tests[path].decode(), tests)
        (root / "repo" / path).write_text(visible)
        write_files(root / "hidden", {hidden_name(path): kept})
    conftests = {Path(p).name: v for p, v in sources.tests.items() if Path(p).name == "conftest.py"}
    write_files(root / "hidden", conftests)
    write_files(root / "reference", {path: sources.modules[path] for path in changed})
    manifest = Manifest(
        sdist=project.source.sdist,
        sha256=project.source.sha256,
        originals={p: checksum(t.encode()) for p, t in sources.modules.items()},
        tests=sorted(sources.tests),
        files=ticket_files(root),
    )
    (root / TICKET_FILE).write_text(ticket_toml(project, ticket, manifest))


def check_ticket(project: Project, root: Path, hidden: int) -> None:
    """The written ticket holds: visible tests green, hidden ones failing, the reference
    resolving it (the hidden tests run from their own folder, as the bench scores them)."""
    ticket = load_ticket(root)
    with tempfile.TemporaryDirectory(prefix="realcode-check-") as scratch:
        before_dir, after_dir = Path(scratch) / "before", Path(scratch) / "after"
        copy_tree(ticket.repo_dir, before_dir)
        copy_tree(ticket.repo_dir, after_dir)
        copy_tree(ticket.reference_dir, after_dir)
        before, after = score_checkout(ticket, before_dir), score_checkout(ticket, after_dir)
    where = f"{project.path}: ticket {ticket.name}"
    if not before.existing.green:
        raise SourceError(
            f"{where}: the visible tests fail on the ticket's code:\n{before.existing.output}"
        )
    if before.hidden.passed >= before.hidden.total or not after.resolved:
        raise SourceError(
            f"{where}: the {hidden} hidden tests do not fail before and pass after once moved "
            f"out of their file (a fixture or data file they need?):\n{after.hidden.output}"
        )


def size(modules: dict[str, str]) -> tuple[int, int]:
    """Lines and characters of the ticket's modules."""
    return sum(t.count("\n") for t in modules.values()), sum(map(len, modules.values()))


def make_ticket(
    project: Project, ticket: RealTicket, sources: Sources, original: list[CaseResult],
    scratch: Path, out_dir: Path,
) -> Generated:  # fmt: skip
    """Build one ticket in `scratch`, check it, and only then put it into `out_dir`."""
    where = f"{project.path}: ticket {ticket.name}"
    try:
        changed = apply_changes(sources.modules, ticket.changes, project.source.modules)
    except SourceError as err:
        raise SourceError(f"{where}: {err}") from err
    checkout = scratch / "code" / ticket.name
    repository(project, sources, changed, checkout)
    hidden = hidden_of(project, ticket, original, run_tests(checkout, sources, where), sources)
    built = scratch / "built" / ticket.name
    write_ticket(project, ticket, sources, hidden, changed, built)
    check_ticket(project, built, sum(map(len, hidden.values())))
    target = out_dir / ticket.name
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(built, target)
    lines, chars = size({**sources.modules, **changed})
    names = sorted(f"{Path(f).name}::{t}" for f, tests in hidden.items() for t in tests)
    return Generated(name=ticket.name, lines=lines, chars=chars, hidden=names)


def generate_project(
    project: Project, out_dir: Path = TICKETS_DIR, cache: Path | None = None
) -> list[Generated]:
    """Write every ticket of the project into `out_dir`; returns what was written."""
    sdist = fetch_sdist(project, cache)
    with tempfile.TemporaryDirectory(prefix="realcode-") as folder:
        scratch = Path(folder)
        sources = read_sources(project, unpack(sdist, scratch / "sdist"))
        repository(project, sources, {}, scratch / "original")
        original = run_tests(scratch / "original", sources, str(project.path))
        return [
            make_ticket(project, ticket, sources, original, scratch, out_dir)
            for ticket in project.tickets
        ]
