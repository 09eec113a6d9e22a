"""The tester's pieces: the junit option, importable modules, and the import check it runs."""

import sys
from pathlib import Path

from activities.testing.cases import import_check_command, import_errors, with_junit
from graphs.implementation.tester.gate import module_name
from integrations.workspace.commands import run_command
from integrations.workspace.sandbox import Sandbox


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


async def test_a_src_layouts_package_is_imported_from_src(tmp_path: Path) -> None:
    (tmp_path / "src" / "abacus").mkdir(parents=True)
    (tmp_path / "src" / "abacus" / "__init__.py").write_text("BEADS = 10\n")
    (tmp_path / "src" / "abacus" / "rods.py").write_text("from abacus import MISSING\n")
    modules = {"src/abacus/__init__.py": "abacus", "src/abacus/rods.py": "abacus.rods"}
    assert [module_name(path) for path in modules] == list(modules.values())
    result = await run_command(
        tmp_path, import_check_command(modules, sys.executable), 60, sandbox=Sandbox(mode="none")
    )
    errors = import_errors(result.output, modules)
    assert list(errors) == ["src/abacus/rods.py"], result.output
    assert "cannot import name 'MISSING'" in errors["src/abacus/rods.py"]


async def test_a_broken_package_init_is_blamed_not_the_modules_under_it(tmp_path: Path) -> None:
    (tmp_path / "stats").mkdir()
    init = '"""Stats."""\nfrom stats.summary.mean import mean\n'
    (tmp_path / "stats" / "__init__.py").write_text(init)
    (tmp_path / "stats" / "summary.py").write_text("def mean(values):\n    return 0\n")
    modules = {"stats/__init__.py": "stats", "stats/summary.py": "stats.summary"}
    result = await run_command(
        tmp_path, import_check_command(modules, sys.executable), 60, sandbox=Sandbox(mode="none")
    )
    errors = import_errors(result.output, modules)
    assert list(errors) == ["stats/__init__.py"], result.output
    assert "No module named 'stats.summary.mean'" in errors["stats/__init__.py"]
    assert errors["stats/__init__.py"].endswith("(line 2)")


async def test_a_syntax_error_in_an_unchanged_import_is_the_changed_modules_own(
    tmp_path: Path,
) -> None:
    (tmp_path / "calc").mkdir()
    (tmp_path / "calc" / "__init__.py").write_text("")
    (tmp_path / "calc" / "helper.py").write_text("def broken(:\n")
    (tmp_path / "calc" / "ops.py").write_text("from calc.helper import broken\n")
    modules = {"calc/ops.py": "calc.ops"}
    result = await run_command(
        tmp_path, import_check_command(modules, sys.executable), 60, sandbox=Sandbox(mode="none")
    )
    errors = import_errors(result.output, modules)
    assert list(errors) == ["calc/ops.py"]
    assert "SyntaxError" in errors["calc/ops.py"]


def test_the_import_checks_older_two_column_lines_still_read() -> None:
    assert import_errors("calc.ops\tImportError: boom\n", {"calc/ops.py": "calc.ops"}) == {
        "calc/ops.py": "ImportError: boom"
    }
