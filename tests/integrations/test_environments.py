"""A repository's own environment: what is detected, what is built, and a clear failed build."""

from pathlib import Path

import pytest

from integrations.envdetect import detect_environment
from integrations.environments import Environments
from integrations.indexes import package_sources
from tests.support.sandboxes import working_sandbox

PYPROJECT = """
[project]
name = "pkg"
requires-python = ">=3.10"
dependencies = ["humanize>=4"]
[project.optional-dependencies]
test = ["pytest-mock", "pkg[docs]"]
docs = ["sphinx"]
[dependency-groups]
lint = ["ruff"]
dev = ["coverage", {include-group = "lint"}]
"""


def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def test_pyproject_dependencies_test_extras_and_groups(tmp_path: Path) -> None:
    recipe = detect_environment(write(tmp_path, {"pyproject.toml": PYPROJECT}))
    assert recipe.requirements == ["pytest", "humanize>=4", "pytest-mock", "coverage", "ruff"]
    assert recipe.python == ">=3.10" and not recipe.install_project
    assert recipe.describe() == "pyproject.toml; Python >=3.10 requested"


def test_requirements_setup_cfg_tox_and_python_version(tmp_path: Path) -> None:
    setup_cfg = "[options]\ninstall_requires =\n    six\n[options.extras_require]\ntest = mock\n"
    write(tmp_path, {
        "requirements.txt": "attrs\n", "requirements/test.txt": "pytest-mock\n",
        "setup.cfg": setup_cfg,
        "tox.ini": "[testenv]\ndeps =\n    pytest-cov\n    -rrequirements.txt\n    {[base]deps}\n",
        ".python-version": "3.11\n",
    })  # fmt: skip
    recipe = detect_environment(tmp_path)
    assert recipe.requirement_files == ["requirements.txt", "requirements/test.txt"]
    assert recipe.requirements == ["pytest", "six", "mock", "pytest-cov"]
    assert recipe.python == "3.11"
    assert recipe.sources == ["setup.cfg", "requirements.txt", "requirements/test.txt", "tox.ini"]


def test_locks_pin_everything_but_the_project_and_setup_py_is_installed(tmp_path: Path) -> None:
    uv_lock = (
        '[[package]]\nname = "pkg"\nversion = "0.1"\nsource = { editable = "." }\n'
        '[[package]]\nname = "attrs"\nversion = "25.1.0"\nsource = { registry = "x" }\n'
    )
    recipe = detect_environment(write(tmp_path, {"uv.lock": uv_lock, "setup.py": "..."}))
    assert recipe.requirements == ["pytest", "attrs==25.1.0"]
    assert recipe.install_project


def test_the_cache_key_follows_dependency_files_only(tmp_path: Path) -> None:
    write(tmp_path, {"pyproject.toml": PYPROJECT, "pkg/code.py": "x = 1\n"})
    key = detect_environment(tmp_path).key
    write(tmp_path, {"pkg/code.py": "x = 2\n"})
    assert detect_environment(tmp_path).key == key
    assert detect_environment(tmp_path, setup_command="make env").key != key
    write(tmp_path, {"pyproject.toml": PYPROJECT.replace("humanize>=4", "humanize>=5")})
    assert detect_environment(tmp_path).key != key


def test_pip_configuration_becomes_uv_settings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "wheels").mkdir()
    (tmp_path / "index" / "simple").mkdir(parents=True)
    config = tmp_path / "pip.conf"
    config.write_text(
        f"[global]\nextra-index-url = file://{tmp_path}/index/simple\n"
        f"find-links = {tmp_path}/wheels\n"
    )
    for name in ("PIP_FIND_LINKS", "PIP_EXTRA_INDEX_URL", "PIP_INDEX_URL", "UV_INDEX"):
        monkeypatch.delenv(name, raising=False)  # the machine's own, which would win
    monkeypatch.setenv("PIP_CONFIG_FILE", str(config))
    monkeypatch.setenv("PIP_INDEX_URL", "https://mirror.example/simple")
    monkeypatch.setenv("UV_HTTP_TIMEOUT", "60")
    sources = package_sources()
    assert sources.env["UV_DEFAULT_INDEX"] == "https://mirror.example/simple"
    assert sources.env["UV_INDEX"] == f"file://{tmp_path}/index/simple"
    assert sources.env["UV_FIND_LINKS"] == f"{tmp_path}/wheels"
    assert sources.env["UV_HTTP_TIMEOUT"] == "60"
    assert {tmp_path / "index", tmp_path / "wheels"} <= set(sources.paths)


async def test_a_failed_build_says_what_failed_with_the_installers_output(tmp_path: Path) -> None:
    missing = "ticketsmith-surely-missing-package-4711"
    pyproject = f'[project]\nname = "x"\nversion = "0"\ndependencies = ["{missing}"]\n'
    checkout = write(tmp_path / "checkout", {"pyproject.toml": pyproject})
    environments = Environments(tmp_path / "environments", working_sandbox())
    env = await environments.ensure(checkout, "demo/broken")
    assert env.path is None and env.error
    assert "could not be built: install the declared dependencies failed" in env.error
    assert missing in env.error.split("Installer output", 1)[1]
    assert not any((tmp_path / "environments" / "demo--broken").glob("*/.ticketsmith-ready"))


async def test_an_unavailable_python_is_reported_and_the_default_used(tmp_path: Path) -> None:
    pyproject = '[project]\nname = "x"\nversion = "0"\nrequires-python = ">=3.99"\n'
    checkout = write(tmp_path / "checkout", {"pyproject.toml": pyproject})
    environments = Environments(tmp_path / "environments", working_sandbox())
    env = await environments.ensure(checkout, "demo/future")
    assert env.error is None, env.error
    assert env.python.startswith("Python >=3.99 was requested but is not available here; Python 3.")
    again = await environments.ensure(checkout, "demo/future")
    assert again.reused and again.path == env.path
