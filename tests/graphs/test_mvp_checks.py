"""The MVP builder's checks without a model: tests that assert, stubs, modules reached, an
interface that fits, promised functions tested, and how the project's command is run."""

from activities.mvp.agents import Verdict
from activities.mvp.project import PublishInput, commit_message
from graphs.mvp.asserting import weak_tests
from graphs.mvp.findings import SmokeRun, check_project
from graphs.mvp.reach import desktop_windows, exercised_names, unreached_modules
from graphs.mvp.stubs import stub_functions
from graphs.mvp.team import with_entry_point
from graphs.mvp.usage import WEB_PROBE, Usage, entry_module, inline_code, input_files
from graphs.schemas import Contract, Plan, PlannedFile

CLI = Usage(interface="command line", command='python -m notes add "buy milk"', first_use="x")


def test_tests_that_check_nothing_are_named() -> None:
    source = """
import pytest
import unittest


def expect_sum(value):
    assert value == 3


def test_assert():
    assert 1 + 2 == 3


def test_raises():
    with pytest.raises(ValueError):
        int("x")


def test_through_a_helper():
    expect_sum(1 + 2)


def test_a_call_checks_nothing():
    int("3")


def test_only_a_comment():
    # to do
    pass


class TestCase(unittest.TestCase):
    def test_method(self):
        self.assertEqual(1, 1)

    def test_empty(self):
        ...
"""
    assert weak_tests("tests/test_x.py", source) == [
        "tests/test_x.py::test_a_call_checks_nothing asserts nothing",
        "tests/test_x.py::test_only_a_comment asserts nothing",
        "tests/test_x.py::test_empty asserts nothing",
    ]
    assert weak_tests("tests/test_y.py", "from app import ui\n") == [
        "tests/test_y.py holds no test"
    ]
    assert weak_tests("tests/test_z.py", "def test_(:\n") == []  # the test run reports it


def test_placeholder_bodies_are_stubs_unless_declared_abstract() -> None:
    source = '''
import abc
from typing import Protocol, overload


def run():
    pass


def later():
    """Does it later."""


def ellipsis():
    ...


def refuse(x):
    raise NotImplementedError("soon")


def works():
    return 1


class Base(abc.ABC):
    @abc.abstractmethod
    def area(self): ...

    def __exit__(self, *exc):
        pass


class Shape(Protocol):
    def area(self) -> float: ...


@overload
def f(x: int) -> int: ...
'''
    assert stub_functions("app/core.py", source) == [
        "app/core.py: run() is a stub (pass)",
        "app/core.py: later() is a stub (a docstring only)",
        "app/core.py: ellipsis() is a stub (...)",
        "app/core.py: refuse() is a stub (raise NotImplementedError)",
    ]
    assert stub_functions("tests/test_core.py", "def helper():\n    pass\n") == []


def test_modules_are_reached_from_the_entry_point_and_the_tests() -> None:
    files = {
        "notes/__init__.py": "",
        "notes/__main__.py": "from .store import Store\nfrom notes import render\n",
        "notes/store.py": "from . import paths\n",
        "notes/paths.py": "",
        "notes/render.py": "",
        "notes/unused.py": "",
        "src/lib/core.py": "",
        "tests/test_store.py": "from lib.core import x\n",
    }
    assert unreached_modules(files, "notes/__main__.py", []) == ["notes/unused.py"]
    usage = Usage(command="python -m notes", first_use="x")
    fixes = check_project(files, usage, [], None, []).fixes()
    unused = [fix for fix in fixes if fix["instruction"].startswith("notes/unused.py is reached")]
    assert [fix["path"] for fix in unused] == ["notes/__main__.py"]  # where it is to be used
    assert unreached_modules(files, None, ["import notes.unused"]) == [
        "notes/__main__.py", "notes/paths.py", "notes/render.py", "notes/store.py",
    ]  # fmt: skip


def test_a_desktop_window_is_named_with_its_toolkit() -> None:
    files = {"app/ui.py": "from tkinter import ttk\n", "tests/test_ui.py": "import tkinter\n"}
    assert desktop_windows(files) == ["app/ui.py opens a desktop window (tkinter)"]


def test_a_promised_function_is_exercised_through_what_the_tests_call() -> None:
    files = {
        "notes/cli.py": "def main(argv):\n    return add_note(argv[0])\n\n\n"
        "def add_note(text):\n    return text\n\n\ndef export():\n    return 1\n",
        "tests/test_cli.py": "from notes.cli import main, export\n\n\n"
        "def test_main():\n    assert main(['x']) == 'x'\n\n\ndef test_export():\n    export()\n",
    }
    used = exercised_names(files)
    assert {"main", "add_note"} <= used and "export" not in used
    contracts = [
        Contract(path="notes/cli.py", signature="def add_note(text: str) -> str", behaviour="b"),
        Contract(path="notes/cli.py", signature="export() -> int", behaviour="writes it"),
    ]
    smoke = SmokeRun(command=CLI.command, passed=True, exit_code=0, output="added")
    problems = check_project(files, CLI, contracts, smoke, []).problems()
    assert "tests/test_cli.py::test_export asserts nothing" in problems
    assert "no test checks `export() -> int` (notes/cli.py): writes it" in problems
    assert not [p for p in problems if "add_note" in p]
    assert '`python -m notes add "buy milk"` starts notes/__main__.py, not written' in problems


def test_a_working_project_has_no_findings_and_a_failed_smoke_run_is_one() -> None:
    files = {
        "notes/__main__.py": "import sys\n\nprint('added', sys.argv[2])\n",
        "tests/test_notes.py": "import subprocess\n\n\ndef test_add():\n"
        "    assert subprocess.run(['python', '-m', 'notes']).returncode == 0\n",
    }
    ok = SmokeRun(command=CLI.command, passed=True, exit_code=0, output="added buy milk")
    assert check_project(files, CLI, [], ok, []).working
    failed = SmokeRun(command=CLI.command, passed=False, exit_code=2, output="Traceback\nKeyError")
    found = check_project(files, CLI, [], failed, ["notes.json"])
    assert found.problems() == [
        "the tests wrote notes.json into the project, not into a temporary directory (tmp_path)",
        '`python -m notes add "buy milk"` failed (exit code 2): Traceback | KeyError',
    ]
    assert [fix["path"] for fix in found.fixes()] == ["tests/test_notes.py", "notes/__main__.py"]
    no_command = check_project(files, Usage(), [], None, [])
    assert "no command runs the project" in no_command.problems()


def test_the_command_names_its_entry_module_and_the_smoke_run() -> None:
    assert entry_module(CLI, ["notes/__main__.py"]) == "notes/__main__.py"
    assert entry_module(CLI, ["notes.py"]) == "notes.py"
    assert entry_module(Usage(command="python app.py --help"), []) == "app.py"
    assert entry_module(Usage(command="notes add x"), []) is None
    assert CLI.smoke_argv() == ["python", "-m", "notes", "add", "buy milk"]
    web = Usage(
        interface="web server", command="python3 -m notes.server", url="http://127.0.0.1:9/"
    )
    assert web.smoke_argv() == ["python", "-c", WEB_PROBE, "http://127.0.0.1:9/", "python", "-m",
                                "notes.server"]  # fmt: skip
    assert Usage(interface="desktop", command="python -m app").smoke_argv() is None
    assert Usage(command='python -c "unclosed').smoke_argv() is None
    library = Usage(interface="library", command="python -c \"import hue; print(hue.hex('A'))\"")
    assert inline_code(library) == "import hue; print(hue.hex('A'))"
    assert 'Run `python -m notes add "buy milk"`: x' == CLI.text()


def test_a_revision_qa_did_not_pass_is_pushed_as_a_draft_saying_why() -> None:
    qa = Verdict(passed=False, done=True, summary="s", verdict="v", problems=["a stub", "no test"])
    draft = commit_message(PublishInput(name="n", message="Revision", qa=qa))
    assert draft == "Draft: Revision\n\nNot working yet:\n- a stub\n- no test"
    passed = qa.model_copy(update={"passed": True})
    assert commit_message(PublishInput(name="n", message="Revision", qa=passed)) == "Revision"


def test_the_plan_gets_the_entry_point_and_a_sample_of_each_file_the_command_reads() -> None:
    usage = Usage(command="python report.py data/temps.csv --out summary.txt 12.50 -v")
    assert input_files(usage) == ["data/temps.csv", "summary.txt"]
    assert (
        input_files(CLI) == [] and input_files(Usage(command="python -c 'open(\"a.txt\")'")) == []
    )
    plan = Plan(version=1, summary="s", files=[PlannedFile(path="summary.txt", action="create",
                purpose="p")], test_plan=[], risks=[], markdown="# Plan")  # fmt: skip
    planned = with_entry_point(plan, usage)
    assert [f.path for f in planned.files] == [
        "summary.txt", "report.py", "tests/test_report.py", "data/temps.csv",
    ]  # fmt: skip
    assert planned.markdown.endswith(f"## How it is run\n\n{usage.text()}\n")
