"""How a repository declares its Python dependencies, read without running any of its code.

Found sources, in one recipe: `pyproject.toml` (dependencies, `test`/`dev` extras, dependency
groups), `requirements*.txt`, `setup.cfg`, `setup.py` (installed, as only running it tells),
`tox.ini` deps, `uv.lock` and `poetry.lock` pins, and the Python version asked for.
"""

import configparser
import hashlib
import re
import tomllib
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

RECIPE_VERSION = "1"  # bump when the way environments are built changes
TEST_EXTRAS = ("test", "tests", "testing", "dev")
REQUIREMENT_GLOBS = (
    "requirements*.txt", "requirements/*.txt", "*requirements.txt", "requirements*.in",
)  # fmt: skip
DEPENDENCY_FILES = ("pyproject.toml", "setup.cfg", "setup.py", "tox.ini", "uv.lock", "poetry.lock")
# Always there: the default test command is `python -m pytest`.
BASE_REQUIREMENTS = ("pytest",)


class EnvironmentRecipe(BaseModel):
    """What to install for a repository, from which files, and a key for the cache."""

    sources: list[str] = Field(default_factory=list)
    requirements: list[str] = Field(default_factory=list)
    requirement_files: list[str] = Field(default_factory=list)
    install_project: bool = False  # dependencies only known by building the project
    python: str | None = None
    setup_command: str | None = None
    key: str = ""

    def describe(self) -> str:
        """One line for people: where the dependencies come from and the Python asked for."""
        where = ", ".join(self.sources) or "no dependency files (pytest only)"
        if self.setup_command:
            where = f"setup_command `{self.setup_command}` (projects.toml)"
        python = f"; Python {self.python} requested" if self.python else ""
        return f"{where}{python}"


def detect_environment(root: Path, setup_command: str | None = None) -> EnvironmentRecipe:
    """The recipe for the repository checked out at `root`."""
    recipe = EnvironmentRecipe(setup_command=setup_command)
    lock = _read_toml(root / "uv.lock") or _read_toml(root / "poetry.lock")
    if lock:
        name = "uv.lock" if (root / "uv.lock").is_file() else "poetry.lock"
        recipe.sources.append(name)
        recipe.requirements += _locked_pins(lock)
    pyproject = _read_toml(root / "pyproject.toml")
    if pyproject:
        _from_pyproject(pyproject, recipe, use_deps=not lock)
    if (root / "setup.cfg").is_file() and not lock:
        _from_setup_cfg(root / "setup.cfg", recipe)
    if (root / "setup.py").is_file() and "project" not in pyproject:
        recipe.sources.append("setup.py")
        recipe.install_project = True
    for pattern in REQUIREMENT_GLOBS:
        for path in sorted(root.glob(pattern)):
            relative = path.relative_to(root).as_posix()
            if path.is_file() and relative not in recipe.requirement_files:
                recipe.requirement_files.append(relative)
                recipe.sources.append(relative)
    if (root / "tox.ini").is_file():
        _from_tox(root / "tox.ini", recipe)
    recipe.requirements = list(dict.fromkeys([*BASE_REQUIREMENTS, *recipe.requirements]))
    recipe.python = recipe.python or _python_version_file(root)
    recipe.key = _cache_key(root, recipe)
    return recipe


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return {}


def _locked_pins(lock: dict[str, Any]) -> list[str]:
    """`name==version` for every package a uv or poetry lock holds (not the project itself)."""
    pins = []
    for package in lock.get("package", []):
        source = package.get("source", {})
        if isinstance(source, dict) and ({"editable", "virtual", "directory"} & set(source)):
            continue  # the project itself (uv marks it so): importable from the checkout
        if package.get("name") and package.get("version"):
            pins.append(f"{package['name']}=={package['version']}")
    return pins


def _from_pyproject(data: dict[str, Any], recipe: EnvironmentRecipe, use_deps: bool) -> None:
    project = data.get("project", {})
    found: list[str] = []
    if use_deps:
        found += project.get("dependencies", [])
        extras = project.get("optional-dependencies", {})
        for extra in TEST_EXTRAS:
            found += [r for r in extras.get(extra, []) if not _is_self_reference(r, project)]
        groups = data.get("dependency-groups", {})
        for group in TEST_EXTRAS:
            found += _group(groups, group, set())
        if "dependencies" in project.get("dynamic", []):
            recipe.install_project = True
    if project or found:
        recipe.sources.append("pyproject.toml")
    recipe.requirements += [r for r in found if isinstance(r, str)]
    recipe.python = recipe.python or project.get("requires-python")


def _is_self_reference(requirement: str, project: dict[str, Any]) -> bool:
    """`name[other-extra]` inside the project's own extras: those extras are read anyway."""
    name = str(project.get("name", "")).lower().replace("_", "-")
    return bool(name) and re.split(r"[\[<>=!~; ]", requirement, maxsplit=1)[0].lower() == name


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
    found = _lines(config.get("options", "install_requires", fallback=""))
    for extra in TEST_EXTRAS:
        found += _lines(config.get("options.extras_require", extra, fallback=""))
    if found:
        recipe.sources.append("setup.cfg")
        recipe.requirements += found
    python = config.get("options", "python_requires", fallback="").strip()
    recipe.python = recipe.python or python or None


def _from_tox(path: Path, recipe: EnvironmentRecipe) -> None:
    config = configparser.ConfigParser(interpolation=None, strict=False)
    try:
        config.read(path, encoding="utf-8")
    except (configparser.Error, UnicodeDecodeError):
        return
    deps = _lines(config.get("testenv", "deps", fallback=""))
    # Substitutions ({[x]deps}, {posargs}) and options (-r, -c) are tox's business.
    usable = [d for d in deps if "{" not in d and not d.startswith("-") and ":" not in d[:20]]
    if usable:
        recipe.sources.append("tox.ini")
        recipe.requirements += usable


def _lines(text: str) -> list[str]:
    lines = (line.split(" #", 1)[0].strip() for line in text.splitlines())
    return [line for line in lines if line and not line.startswith("#")]


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
