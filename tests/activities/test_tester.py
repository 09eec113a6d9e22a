"""The tester's pieces: the junit option, importable modules, and the import check it runs."""

import sys
from pathlib import Path

from activities.testcases import import_check_command, import_errors, with_junit
from graphs.implementation.gate import module_name
from integrations.commands import run_command
from integrations.sandbox import Sandbox


def test_pytest_commands_ask_for_junit_xml() -> None:
    assert with_junit("python -m pytest -q").endswith(
        "--junitxml=.ticketsmith-junit.xml -o junit_family=xunit1"
    )
    assert "--junitxml" in with_junit("pytest tests")
    assert with_junit("make test") == "make test"
    assert with_junit("npm test") == "npm test"


def test_module_names_of_changed_sources() -> None:
    assert module_name("calc/ops.py") == "calc.ops"
    assert module_name("src/calc/__init__.py") == "calc"
    assert module_name("tests/test_ops.py") is None
    assert module_name("calc/test_ops.py") is None
    assert module_name("conftest.py") is None
    assert module_name("README.md") is None
    assert module_name("my-tool/run.py") is None  # not importable by name


async def test_the_import_check_names_the_files_that_do_not_import(tmp_path: Path) -> None:
    (tmp_path / "calc").mkdir()
    (tmp_path / "calc" / "__init__.py").write_text("")
    (tmp_path / "calc" / "good.py").write_text("VALUE = 1\n")
    (tmp_path / "calc" / "bad.py").write_text("from calc.good import MISSING\n")
    modules = {"calc/good.py": "calc.good", "calc/bad.py": "calc.bad"}
    result = await run_command(
        tmp_path, import_check_command(modules, sys.executable), 60, sandbox=Sandbox(mode="none")
    )
    errors = import_errors(result.output, modules)
    assert list(errors) == ["calc/bad.py"]
    assert "ImportError: cannot import name 'MISSING'" in errors["calc/bad.py"]
