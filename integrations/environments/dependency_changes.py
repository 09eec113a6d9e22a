"""Which Python dependencies a change adds or moves to another version, from its dependency files.

The files read: `requirements*.txt` (and the other requirement files `detect` knows),
`pyproject.toml` (`[project]` dependencies, every extra, every dependency group), `setup.cfg`
(`install_requires`, every extra), `uv.lock` and `poetry.lock`. Only an exact pin (`==1.2.3`,
`===1.2.3`, or a lock's version) names one version; any other requirement is reported unpinned.
"""

import configparser
import re
import tomllib
from collections.abc import Iterable, Mapping
from pathlib import PurePosixPath
from typing import Any

from packaging.requirements import InvalidRequirement, Requirement
from packaging.version import InvalidVersion, Version
from pydantic import BaseModel

from integrations.environments.detect import REQUIREMENT_GLOBS
from integrations.environments.poetry import poetry_pins

DEPENDENCY_FILE_NAMES = ("pyproject.toml", "setup.cfg", "uv.lock", "poetry.lock")


class DependencyChange(BaseModel):
    """A dependency the change adds or moves: its new version, or None when it is not pinned."""

    name: str
    version: str | None = None
    previous: str | None = None  # the version the base pinned, when it pinned one
    requirement: str = ""  # as written, for an unpinned one
    path: str = ""


def is_dependency_file(path: str) -> bool:
    """True for a file that declares or locks Python dependencies."""
    pure = PurePosixPath(path)
    return pure.name in DEPENDENCY_FILE_NAMES or any(pure.match(p) for p in REQUIREMENT_GLOBS)


def dependency_changes(
    before: Mapping[str, str], after: Mapping[str, str]
) -> list[DependencyChange]:
    """What the files' new texts add or change against their old ones (a missing or deleted file
    is ""); removals and what stayed the same are not reported."""
    old = _declared(before)
    new = _declared(after)
    found: list[DependencyChange] = []
    for name, (versions, specs) in new.items():
        old_versions, old_specs = old.get(name, ({}, {}))
        previous = max(old_versions, key=_version_key) if old_versions else None
        for version, path in versions.items():
            if version not in old_versions:
                found.append(DependencyChange(
                    name=name, version=version, previous=previous, path=path,
                ))  # fmt: skip
        if versions:
            continue  # a pinned version says more than a range beside it (a lock beside pyproject)
        for requirement, path in specs.items():
            if requirement not in old_specs:
                found.append(DependencyChange(name=name, requirement=requirement, path=path))
    return found


# By normalised name: exact versions and other requirements, each with the file it came from.
Declared = dict[str, tuple[dict[str, str], dict[str, str]]]


def _declared(files: Mapping[str, str]) -> Declared:
    found: Declared = {}
    for path, text in sorted(files.items()):
        for name, version, requirement in _read(path, text):
            versions, specs = found.setdefault(name, ({}, {}))
            if version is not None:
                versions.setdefault(version, path)
            else:
                specs.setdefault(requirement, path)
    return found


def _read(path: str, text: str) -> list[tuple[str, str | None, str]]:
    """(name, exact version or None, requirement) for every dependency the file declares."""
    name = PurePosixPath(path).name
    if not text.strip():
        return []
    if name == "uv.lock":
        return [(_normalise(n), v, f"{n}=={v}") for n, v in _uv_lock_pins(_toml(text))]
    if name == "poetry.lock":
        return _parsed(poetry_pins(_toml(text)))
    if name == "pyproject.toml":
        return _parsed(_pyproject_requirements(_toml(text)))
    if name == "setup.cfg":
        return _parsed(_setup_cfg_requirements(text))
    return _parsed(_requirement_lines(text))


def _parsed(requirements: Iterable[str]) -> list[tuple[str, str | None, str]]:
    found = []
    for line in requirements:
        try:
            requirement = Requirement(line)
        except InvalidRequirement:
            continue  # a URL, a path or an option: no version on the index to ask about
        if requirement.url:
            continue
        found.append((_normalise(requirement.name), _exact(requirement), str(requirement)))
    return found


def _exact(requirement: Requirement) -> str | None:
    """The one version an `==`/`===` pin names (not a wildcard), else None."""
    specifiers = list(requirement.specifier)
    if (
        len(specifiers) == 1
        and specifiers[0].operator in ("==", "===")
        and "*" not in str(specifiers[0].version)
    ):
        return specifiers[0].version
    return None


def _toml(text: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return {}


def _uv_lock_pins(lock: dict[str, Any]) -> list[tuple[str, str]]:
    """Packages uv locked from an index (not the project itself, paths or git)."""
    return [
        (str(p["name"]), str(p["version"]))
        for p in lock.get("package", [])
        if isinstance(p, dict) and p.get("name") and p.get("version")
        and "registry" in (p.get("source") or {})
    ]  # fmt: skip


def _pyproject_requirements(data: dict[str, Any]) -> list[str]:
    project = data.get("project", {})
    found = list(project.get("dependencies", []))
    for extra in project.get("optional-dependencies", {}).values():
        found += extra
    for group in data.get("dependency-groups", {}).values():
        found += [item for item in group if isinstance(item, str)]
    return [r for r in found if isinstance(r, str)]


def _setup_cfg_requirements(text: str) -> list[str]:
    config = configparser.ConfigParser(interpolation=None)
    try:
        config.read_string(text)
    except configparser.Error:
        return []
    found = _requirement_lines(config.get("options", "install_requires", fallback=""))
    if config.has_section("options.extras_require"):
        for _, value in config.items("options.extras_require"):
            found += _requirement_lines(value)
    return found


def _requirement_lines(text: str) -> list[str]:
    """Requirement lines, with continuations joined and comments and options dropped."""
    joined = re.sub(r"\\\r?\n", " ", text)
    lines = (re.split(r"(^|\s)#", line, maxsplit=1)[0].strip() for line in joined.splitlines())
    # `--hash=...` after a requirement belongs to it; a line that starts with `-` is an option.
    return [line.split(" --", 1)[0] for line in lines if line and not line.startswith("-")]


def _version_key(version: str) -> tuple[int, Any]:
    try:
        return (1, Version(version))
    except InvalidVersion:
        return (0, version)


def _normalise(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()
