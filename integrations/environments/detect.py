"""How a repository declares its Python dependencies, read without running any of its code.

Found sources, in one recipe: `pyproject.toml` (dependencies, `test`/`dev` extras, dependency
groups), `requirements*.txt`, `setup.cfg`, `setup.py` (installed, as only running it tells),
tox's `[testenv]` (deps, requirement files and extras), `uv.lock` (exported by uv itself,
markers and sources kept), `poetry.lock` pins with their markers, and the Python version asked
for. A project whose tests cannot import it from the checkout's root (a `src/` layout) is
installed, editable, after its dependencies.
"""

import configparser
import hashlib
import re
import tomllib
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from integrations.environments.poetry import (
    normalise_name,
    poetry_pins,
    poetry_python,
    poetry_requirements,
)
from integrations.environments.tox import read_tox, requirement_lines

RECIPE_VERSION = "3"  # bump when the way environments are built changes
TEST_EXTRAS = ("test", "tests", "testing", "dev")
REQUIREMENT_GLOBS = (
    "requirements*.txt", "requirements/*.txt", "*requirements.txt", "requirements*.in",
    "tests/requirements*.txt", "test/requirements*.txt",
)  # fmt: skip
DEPENDENCY_FILES = ("pyproject.toml", "setup.cfg", "setup.py", "tox.ini", "uv.lock", "poetry.lock")
_FOR_TESTS = re.compile(r"(^|[/_.-])tests?([/_.-]|\d|$)")
_NOT_FOR_TESTS = re.compile(r"doc|build|typing|mypy|lint|style|release|publish")
# Always there: the default test command is `python -m pytest`.
BASE_REQUIREMENTS = ("pytest",)


class EnvironmentRecipe(BaseModel):
    """What to install for a repository, from which files, and a key for the cache."""

    sources: list[str] = Field(default_factory=list)
    requirements: list[str] = Field(default_factory=list)
    requirement_files: list[str] = Field(default_factory=list)
    install_project: bool = False  # installed editable after its dependencies
    # `uv export` options when uv.lock is the source: uv turns its own lock into requirements.
    uv_export: list[str] | None = None
    assumptions: list[str] = Field(default_factory=list)
    python: str | None = None
    setup_command: str | None = None
    key: str = ""

    def describe(self) -> str:
        """One line for people: where the dependencies come from and the Python asked for."""
        where = ", ".join(self.sources) or "no dependency files (pytest only)"
        if self.setup_command:
            where = f"setup_command `{self.setup_command}` (projects.toml)"
        python = f"; Python {self.python} requested" if self.python else ""
        assumed = "".join(f"; {text}" for text in self.assumptions)
        return f"{where}{python}{assumed}"


def detect_environment(root: Path, setup_command: str | None = None) -> EnvironmentRecipe:
    """The recipe for the repository checked out at `root`."""
    recipe = EnvironmentRecipe(setup_command=setup_command)
    pyproject = _read_toml(root / "pyproject.toml")
    lock = _read_toml(root / "uv.lock")
    if lock:
        recipe.sources.append("uv.lock")
        recipe.uv_export = _uv_export_options(pyproject)
    elif lock := _read_toml(root / "poetry.lock"):
        recipe.sources.append("poetry.lock")
        recipe.requirements += poetry_pins(lock)
    if pyproject:
        _from_pyproject(pyproject, recipe, use_deps=not lock)
        if not lock and "dependencies" not in pyproject.get("project", {}):
            _from_poetry(pyproject.get("tool", {}).get("poetry", {}), recipe)
    if (root / "setup.cfg").is_file() and not lock:
        _from_setup_cfg(root / "setup.cfg", recipe)
    if (root / "setup.py").is_file() and "project" not in pyproject:
        recipe.sources.append("setup.py")
        recipe.install_project = True
    for relative in _requirement_files(root):
        recipe.requirement_files.append(relative)
        recipe.sources.append(relative)
    _from_tox(root, pyproject, recipe)
    _decide_project_install(root, pyproject, recipe)
    recipe.requirements = list(dict.fromkeys([*BASE_REQUIREMENTS, *recipe.requirements]))
    recipe.python = recipe.python or _python_version_file(root)
    recipe.key = _cache_key(root, recipe)
    return recipe


def _requirement_files(root: Path) -> list[str]:
    """The requirements files the tests need: the main ones and those for tests, when some are
    named for tests (pinned files for docs, builds or type checks often conflict with them),
    else all but those for docs, builds, type checks and linters."""
    found: list[str] = []
    for pattern in REQUIREMENT_GLOBS:
        for path in sorted(root.glob(pattern)):
            relative = path.relative_to(root).as_posix()
            if path.is_file() and relative not in found:
                found.append(relative)
    stems = {name: name.lower().removesuffix(Path(name).suffix) for name in found}
    for_tests = [name for name in found if _FOR_TESTS.search(stems[name])]
    # `tests37.txt` beside `tests.txt` pins for another Python: the plain one is for this one.
    plain = {re.sub(r"[-_]?(py)?\d+$", "", stems[name]) for name in for_tests}
    for_tests = [n for n in for_tests if stems[n] in plain or len(for_tests) == 1] or for_tests
    if for_tests:
        main = [name for name in found if Path(stems[name]).name in ("requirements", "base")]
        main = [name for name in main if "/" not in name or name.startswith("requirements/")]
        return [*main, *for_tests]
    return [name for name in found if not _NOT_FOR_TESTS.search(stems[name])]


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return {}


def _uv_export_options(pyproject: dict[str, Any]) -> list[str]:
    """`uv export` options for the lock: its test extras and groups, pins with their markers."""
    options = ["--frozen", "--no-hashes", "--no-header", "--no-annotate"]
    extras = pyproject.get("project", {}).get("optional-dependencies", {})
    groups = pyproject.get("dependency-groups", {})
    options += [f"--extra={name}" for name in TEST_EXTRAS if name in extras]
    options += [f"--group={name}" for name in TEST_EXTRAS if name in groups]
    return options


def _decide_project_install(
    root: Path, pyproject: dict[str, Any], recipe: EnvironmentRecipe
) -> None:
    """Install the project when its tests cannot import it from the root: a `src/` layout."""
    if recipe.install_project or recipe.uv_export is not None:
        return  # already installed (setup.py, dynamic metadata) or by uv's export (`-e .`)
    if not _has_src_packages(root):
        return
    buildable = (
        "build-system" in pyproject
        or "project" in pyproject
        or (root / "setup.py").is_file()
        or (root / "setup.cfg").is_file()
    )
    if buildable:
        recipe.install_project = True
        return
    recipe.assumptions.append(
        "code under src/ but no build configuration, so the project is not installed: if its "
        "tests cannot import it, set setup_command in projects.toml"
    )


def _has_src_packages(root: Path) -> bool:
    src = root / "src"
    return src.is_dir() and any(
        (child / "__init__.py").is_file() or child.suffix == ".py" or child.is_dir()
        for child in src.iterdir()
        if not child.name.startswith((".", "_")) and not child.name.endswith(".egg-info")
    )


def _from_pyproject(data: dict[str, Any], recipe: EnvironmentRecipe, use_deps: bool) -> None:
    project = data.get("project", {})
    found: list[str] = []
    if use_deps:
        found += project.get("dependencies", [])
        extras = project.get("optional-dependencies", {})
        seen = {name for name in TEST_EXTRAS if name in extras}
        for extra in TEST_EXTRAS:
            found += _without_self(extras.get(extra, []), project, seen)
        groups = data.get("dependency-groups", {})
        for group in TEST_EXTRAS:
            found += _without_self(_group(groups, group, set()), project, seen)
        if "dependencies" in project.get("dynamic", []):
            recipe.install_project = True
    if project or found:
        recipe.sources.append("pyproject.toml")
    recipe.requirements += [r for r in found if isinstance(r, str)]
    recipe.python = recipe.python or project.get("requires-python")


def _from_poetry(poetry: dict[str, Any], recipe: EnvironmentRecipe) -> None:
    """Poetry's own tables: dependencies and the test or dev groups."""
    if found := poetry_requirements(poetry, TEST_EXTRAS):
        recipe.sources.append("pyproject.toml (poetry)")
        recipe.requirements += found
    recipe.python = recipe.python or poetry_python(poetry)


def _is_self_reference(requirement: str, project: dict[str, Any]) -> bool:
    """`name[extra]` naming the project itself: the checkout, not a released copy."""
    name = normalise_name(str(project.get("name", "")))
    return (
        bool(name) and normalise_name(re.split(r"[\[<>=!~; ]", requirement, maxsplit=1)[0]) == name
    )


def _without_self(requirements: list[Any], project: dict[str, Any], seen: set[str]) -> list[str]:
    """The requirements with each self-reference replaced by the extras it names."""
    extras = project.get("optional-dependencies", {})
    found: list[str] = []
    for requirement in requirements:
        if not isinstance(requirement, str):
            continue
        if not _is_self_reference(requirement, project):
            found.append(requirement)
            continue
        named = re.search(r"\[([^\]]*)\]", requirement)
        for extra in (e.strip() for e in (named.group(1) if named else "").split(",")):
            if extra and extra not in seen:
                seen.add(extra)
                found += _without_self(extras.get(extra, []), project, seen)
    return found


def _group(groups: dict[str, Any], name: str, seen: set[str]) -> list[str]:
    """A PEP 735 dependency group, with the groups it includes."""
    if name in seen or name not in groups:
        return []
    seen.add(name)
    found: list[str] = []
    for item in groups[name]:
        if isinstance(item, str):
            found.append(item)
        elif isinstance(item, dict) and "include-group" in item:
            found += _group(groups, item["include-group"], seen)
    return found


def _from_setup_cfg(path: Path, recipe: EnvironmentRecipe) -> None:
    config = configparser.ConfigParser(interpolation=None)
    try:
        config.read(path, encoding="utf-8")
    except (configparser.Error, UnicodeDecodeError):
        return
    found = requirement_lines(config.get("options", "install_requires", fallback=""))
    for extra in TEST_EXTRAS:
        found += requirement_lines(config.get("options.extras_require", extra, fallback=""))
    if found:
        recipe.sources.append("setup.cfg")
        recipe.requirements += found
    python = config.get("options", "python_requires", fallback="").strip()
    recipe.python = recipe.python or python or None


def _from_tox(root: Path, pyproject: dict[str, Any], recipe: EnvironmentRecipe) -> None:
    """tox's `[testenv]`: its deps, the requirement files it names and the extras it installs."""
    tox = read_tox(root)
    if tox is None:
        return
    project = pyproject.get("project", {})
    declared = {**_setup_cfg_extras(root), **project.get("optional-dependencies", {})}
    # The test extras are installed already; a self-reference brings the extras it names.
    wanted = [e for e in tox.extras if e in declared and e not in TEST_EXTRAS]
    extras = [item for extra in wanted for item in declared[extra]]
    extras = _without_self(extras, project, {*TEST_EXTRAS, *wanted})
    files = [f for f in tox.requirement_files if f not in recipe.requirement_files]
    if tox.requirements or files or extras:
        recipe.sources.append("tox.ini")
        recipe.requirements += tox.requirements + extras
        recipe.requirement_files += files


def _setup_cfg_extras(root: Path) -> dict[str, list[str]]:
    """The extras `setup.cfg` declares, by name."""
    config = configparser.ConfigParser(interpolation=None)
    try:
        config.read(root / "setup.cfg", encoding="utf-8")
    except (configparser.Error, UnicodeDecodeError):
        return {}
    if not config.has_section("options.extras_require"):
        return {}
    return {
        name: requirement_lines(config.get("options.extras_require", name))
        for name in config.options("options.extras_require")
    }


def _python_version_file(root: Path) -> str | None:
    try:
        first = (root / ".python-version").read_text(encoding="utf-8").split()
    except (OSError, UnicodeDecodeError):
        return None
    return first[0] if first else None


def _cache_key(root: Path, recipe: EnvironmentRecipe) -> str:
    """A hash of everything that decides the environment: files, recipe and setup command."""
    digest = hashlib.sha256(f"{RECIPE_VERSION}\n{recipe.setup_command or ''}\n".encode())
    names = [*DEPENDENCY_FILES, ".python-version", *recipe.requirement_files]
    for name in sorted(set(names)):
        path = root / name
        if path.is_file():
            digest.update(f"{name}\n".encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]
