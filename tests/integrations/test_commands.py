"""The test command's environment: the worker's own pytest plugins stay out of the project's run."""

from pathlib import Path

import pytest

from integrations.commands import run_command

CHECK = (
    "def test_the_worker_plugin_is_off(pytestconfig):\n"
    '    assert pytestconfig.pluginmanager.get_plugin("langsmith_plugin") is None\n'
)


async def test_pytest_runs_without_the_langsmith_plugin(tmp_path: Path) -> None:
    (tmp_path / "test_plugins.py").write_text(CHECK)
    result = await run_command(tmp_path, "python -m pytest -q -p no:cacheprovider", 120)
    assert result.exit_code == 0, result.output
    assert "1 passed" in result.output


async def test_the_workers_own_pytest_options_are_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PYTEST_ADDOPTS", "-x")
    script = "import os; print(os.environ['PYTEST_ADDOPTS'])"
    result = await run_command(tmp_path, f'python -c "{script}"', 30)
    assert result.output.strip() == "-p no:langsmith_plugin -x"
