"""A repository's own environment: what is detected, what is built, and a clear failed build."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from integrations.environments.build import (
    LOCKED_REQUIREMENTS,
    Environments,
    _install_steps,
    uv_binary,
)
from integrations.environments.detect import detect_environment
from integrations.environments.indexes import package_sources
from integrations.workspace.sandbox import Limits
from tests.support.sandboxes import working_sandbox

BUILD_LIMITS = Limits(memory_mb=2048, processes=256, cpu_seconds=120, output_bytes=1 << 20)

DATA = Path(__file__).parent / "data"
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
    # `pkg[docs]` in the test extra is the project itself: its docs extra, not a released copy.
    assert recipe.requirements == [
        "pytest", "humanize>=4", "pytest-mock", "sphinx", "coverage", "ruff"
    ]  # fmt: skip
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


def test_tox_extras_and_requirement_files_are_installed_as_tox_installs_them(
    tmp_path: Path,
) -> None:
    pyproject = (
        '[project]\nname = "parser"\ndependencies = []\n'
        '[project.optional-dependencies]\ndiagrams = ["railroad-diagrams", "parser[html]"]\n'
        'html = ["jinja2"]\ntest = ["hypothesis"]\n'
    )
    write(tmp_path, {
        "pyproject.toml": pyproject,
        "ci/pins.txt": "freezegun\n",
        "tox.ini": "[testenv]\ndeps =\n  -r ci/pins.txt\n  -r missing.txt\n  py37: mock\n"
                   "extras = diagrams, test\ncommands = pytest\n",
    })  # fmt: skip
    recipe = detect_environment(tmp_path)
    assert recipe.requirements == ["pytest", "hypothesis", "railroad-diagrams", "jinja2"]
    assert recipe.requirement_files == ["ci/pins.txt"]
    assert recipe.sources == ["pyproject.toml", "tox.ini"]


def test_tox_extras_of_a_setup_cfg_project(tmp_path: Path) -> None:
    setup_cfg = "[options.extras_require]\nyaml =\n    pyyaml\n"
    write(tmp_path, {"setup.cfg": setup_cfg, "tox.ini": "[testenv]\nextras = yaml\n"})
    assert detect_environment(tmp_path).requirements == ["pytest", "pyyaml"]


def test_a_uv_lock_is_exported_by_uv_with_its_test_groups(tmp_path: Path) -> None:
    recipe = detect_environment(shutil.copytree(DATA / "uv-workspace", tmp_path / "repo"))
    assert recipe.sources[0] == "uv.lock"
    assert recipe.uv_export is not None and "--group=test" in recipe.uv_export
    assert recipe.requirements == ["pytest"]
    steps = _install_steps(recipe, str(uv_binary()), tmp_path / "env")
    (export_what, export), (_, install) = steps
    assert export_what == "export uv.lock's requirements"
    result = subprocess.run(
        export, cwd=tmp_path / "repo", capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 0, result.stderr
    locked = (tmp_path / "env" / LOCKED_REQUIREMENTS).read_text().splitlines()
    # The project and its workspace member editable, the git source as git, markers kept.
    assert {"-e .", "-e ./packages/helper"} <= set(locked)
    assert any(line.startswith("gitdep @ git+file://") for line in locked)
    assert "pywin32==312 ; sys_platform == 'win32'" in locked
    assert "iniconfig==2.1.0 ; python_full_version < '3.10'" in locked
    assert "iniconfig==2.3.1 ; python_full_version >= '3.10'" in locked
    assert install[-2:] == ["-r", str(tmp_path / "env" / LOCKED_REQUIREMENTS)]


POETRY_LOCK = """
[[package]]
name = "click"
version = "8.1.8"
python-versions = ">=3.7"
[package.dependencies]
colorama = {version = "*", markers = 'platform_system == "Windows"'}

[[package]]
name = "colorama"
version = "0.4.6"
python-versions = "!=3.0.*,!=3.1.*,!=3.2.*,!=3.3.*,!=3.4.*,!=3.5.*,!=3.6.*,>=2.7"

[[package]]
name = "pywin32"
version = "311"
python-versions = "*"
markers = 'sys_platform == "win32"'

[[package]]
name = "numpy"
version = "2.0.2"
python-versions = ">=3.9"

[[package]]
name = "numpy"
version = "2.3.1"
python-versions = ">=3.11"
"""


def test_a_poetry_lock_keeps_each_packages_markers(tmp_path: Path) -> None:
    recipe = detect_environment(write(tmp_path, {"poetry.lock": POETRY_LOCK}))
    assert recipe.requirements == [
        "pytest",
        "click==8.1.8",
        'colorama==0.4.6 ; platform_system == "Windows"',
        'pywin32==311 ; sys_platform == "win32"',
        "numpy==2.0.2 ; python_full_version >= '3.9'",
        "numpy==2.3.1 ; python_full_version >= '3.11'",
    ]
    linux_311 = {"sys_platform": "linux", "platform_system": "Linux"}
    wanted = [r for r in recipe.requirements if _applies(r, linux_311)]
    assert "pywin32==311" not in " ".join(wanted) and "colorama" not in " ".join(wanted)


def _applies(requirement: str, environment: dict[str, str]) -> bool:
    parsed = Requirement(requirement)
    return parsed.marker is None or parsed.marker.evaluate(environment)


def test_a_src_layout_is_installed_after_its_dependencies(tmp_path: Path) -> None:
    pyproject = '[project]\nname = "lib"\nversion = "1"\ndependencies = ["attrs"]\n'
    write(tmp_path, {"pyproject.toml": pyproject, "src/lib/__init__.py": ""})
    recipe = detect_environment(tmp_path)
    assert recipe.install_project
    steps = _install_steps(recipe, "uv", tmp_path / "env")
    assert [what for what, _ in steps] == [
        "install the declared dependencies",
        "install the project (editable, after its dependencies)",
    ]
    assert steps[1][1][-2:] == ["-e", "."]
    flat = write(tmp_path / "flat", {"pyproject.toml": pyproject, "lib/__init__.py": ""})
    assert not detect_environment(flat).install_project  # importable from the checkout's root


def test_src_code_without_build_configuration_says_what_was_assumed(tmp_path: Path) -> None:
    recipe = detect_environment(write(tmp_path, {"src/tool.py": "", "requirements.txt": "x\n"}))
    assert not recipe.install_project
    assert "set setup_command in projects.toml" in recipe.describe()


def test_a_groups_self_reference_brings_the_extras_it_names(tmp_path: Path) -> None:
    pyproject = (
        '[project]\nname = "Requests"\nversion = "2"\n'
        '[project.optional-dependencies]\nsocks = ["PySocks>=1.5.6"]\n'
        '[dependency-groups]\ntest = ["pytest-httpbin", "requests[socks]"]\n'
    )
    recipe = detect_environment(write(tmp_path, {"pyproject.toml": pyproject}))
    assert recipe.requirements == ["pytest", "pytest-httpbin", "PySocks>=1.5.6"]


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


async def test_a_locked_src_layout_project_is_built_and_imports_from_the_checkout(
    tmp_path: Path,
) -> None:
    pyproject = (
        '[project]\nname = "lib"\nversion = "1"\nrequires-python = ">=3.9"\n'
        'dependencies = ["iniconfig", "pywin32; sys_platform == \'win32\'"]\n'
        '[build-system]\nrequires = ["hatchling"]\nbuild-backend = "hatchling.build"\n'
    )
    checkout = write(tmp_path / "repo", {"pyproject.toml": pyproject, "src/lib/__init__.py": ""})
    lock = subprocess.run(
        [str(uv_binary()), "lock", "--quiet"], cwd=checkout, capture_output=True, text=True,
        env={**os.environ, **package_sources().env, "UV_INDEX_STRATEGY": "unsafe-best-match"},
        timeout=120, check=False,
    )  # fmt: skip
    assert lock.returncode == 0, lock.stderr
    environments = Environments(tmp_path / "environments", working_sandbox(BUILD_LIMITS))
    env = await environments.ensure(checkout, "me/lib")
    assert env.error is None and env.path is not None, env.error
    assert env.description.startswith("uv.lock")
    imported = subprocess.run(
        [str(env.path / "bin" / "python"), "-c", "import lib, iniconfig; print(lib.__file__)"],
        cwd=tmp_path, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert imported.stdout.strip() == str(checkout / "src" / "lib" / "__init__.py"), imported


def test_requirement_files_for_tests_are_chosen_over_pinned_sets_for_other_jobs(
    tmp_path: Path,
) -> None:
    pinned = {
        f"requirements/{name}.txt": "typing-extensions==4.7.1\n"
        for name in ("build", "dev", "docs", "typing", "tests", "tests37")
    }
    recipe = detect_environment(write(tmp_path / "click", pinned))
    assert recipe.requirement_files == ["requirements/tests.txt"]
    plain = write(tmp_path / "plain", {"requirements.txt": "a\n", "requirements-docs.txt": "b\n"})
    assert detect_environment(plain).requirement_files == ["requirements.txt"]


def test_poetrys_own_tables_without_a_lock(tmp_path: Path) -> None:
    pyproject = (
        '[tool.poetry]\nname = "cleo"\nversion = "2.1.0"\n'
        '[tool.poetry.dependencies]\npython = "^3.7"\nrapidfuzz = "^3.0.0"\n'
        'crashtest = {version = "~0.4.1", markers = "sys_platform != \'win32\'"}\n'
        'tomli = {version = "*", optional = true}\nlocal = {path = "../local"}\n'
        '[tool.poetry.group.test.dependencies]\npytest-mock = "3.14.0"\n'
        '[tool.poetry.group.docs.dependencies]\nsphinx = "*"\n'
        '[build-system]\nrequires = ["poetry-core"]\nbuild-backend = "poetry.core.masonry.api"\n'
    )
    recipe = detect_environment(write(tmp_path, {"pyproject.toml": pyproject, "src/cleo/a.py": ""}))
    assert recipe.requirements == [
        "pytest",
        "rapidfuzz>=3.0.0,<4",
        "crashtest>=0.4.1,<0.5 ; sys_platform != 'win32'",
        "pytest-mock==3.14.0",
    ]
    assert recipe.python == ">=3.7,<4" and recipe.install_project
