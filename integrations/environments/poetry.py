"""What poetry declares: a lock's pins with their markers, and `[tool.poetry]`'s own tables as
PEP 508 requirements (poetry's `^` and `~` constraints turned into PEP 440 specifiers)."""

import re
from collections import Counter
from typing import Any


def poetry_pins(lock: dict[str, Any]) -> list[str]:
    """`name==version ; markers` for every package of a poetry lock.

    A package's markers are its own (newer locks), else those under which every package
    that depends on it asks for it; a package locked in several versions is told apart by
    the Pythons each supports. uv evaluates the markers for the environment's interpreter.
    """
    packages = [p for p in lock.get("package", []) if p.get("name") and p.get("version")]
    wanted = _markers_of_dependents(packages)
    versions = Counter(normalise_name(package["name"]) for package in packages)
    pins = []
    for package in packages:
        name = normalise_name(package["name"])
        markers = [str(package["markers"])] if isinstance(package.get("markers"), str) else []
        if not markers and (asked := wanted.get(name)):
            markers = [asked[0] if len(asked) == 1 else " or ".join(f"({m})" for m in asked)]
        if versions[name] > 1 and (python := _python_marker(package.get("python-versions"))):
            markers.append(python)
        marker = " and ".join(f"({m})" for m in markers) if len(markers) > 1 else "".join(markers)
        pins.append(f"{package['name']}=={package['version']}" + (f" ; {marker}" if marker else ""))
    return list(dict.fromkeys(pins))


def _markers_of_dependents(packages: list[dict[str, Any]]) -> dict[str, list[str]]:
    """By package: the markers it is asked for under, empty when some dependent always wants it."""
    found: dict[str, list[str]] = {}
    always: set[str] = set()
    for package in packages:
        for name, spec in (package.get("dependencies") or {}).items():
            specs = spec if isinstance(spec, list) else [spec]
            for one in specs:
                marker = one.get("markers") if isinstance(one, dict) else None
                if isinstance(marker, str) and marker.strip():
                    found.setdefault(normalise_name(name), []).append(marker.strip())
                else:
                    always.add(normalise_name(name))
    return {name: list(dict.fromkeys(m)) for name, m in found.items() if name not in always}


def _python_marker(python_versions: Any) -> str:
    """A `python_full_version` marker for a PEP 440 specifier set, or "" when it is not one."""
    from packaging.specifiers import InvalidSpecifier, SpecifierSet

    if not isinstance(python_versions, str) or python_versions.strip() in ("", "*"):
        return ""
    try:
        specifiers = SpecifierSet(python_versions)
    except InvalidSpecifier:
        return ""
    return " and ".join(
        f"python_full_version {s.operator} '{s.version}'" for s in sorted(specifiers, key=str)
    )


def poetry_requirements(poetry: dict[str, Any], groups: tuple[str, ...]) -> list[str]:
    """Poetry's own tables (`[tool.poetry]`): dependencies and the named groups, as PEP 508
    requirements."""
    tables = [poetry.get("dependencies", {}), poetry.get("dev-dependencies", {})]
    tables += [poetry.get("group", {}).get(name, {}).get("dependencies", {}) for name in groups]
    return [
        requirement
        for table in tables
        if isinstance(table, dict)
        for name, spec in table.items()
        if (requirement := _poetry_requirement(name, spec))
    ]


def poetry_python(poetry: dict[str, Any]) -> str | None:
    """The Python `[tool.poetry.dependencies]` asks for, as a PEP 440 specifier."""
    python = poetry.get("dependencies", {}).get("python")
    return (_poetry_specifier(python) or None) if isinstance(python, str) else None


def _poetry_requirement(name: str, spec: Any) -> str:
    """One poetry dependency as a requirement; "" for Python itself, optional ones, and sources
    other than the index (git, path, url)."""
    if name.lower() == "python":
        return ""
    if isinstance(spec, list):  # several constraints by marker: the first is as good as any
        spec = spec[0] if spec else "*"
    extras, markers = "", ""
    if isinstance(spec, dict):
        if spec.get("optional") or {"git", "path", "url", "file"} & set(spec):
            return ""
        if spec.get("extras"):
            extras = "[" + ",".join(str(e) for e in spec["extras"]) + "]"
        if isinstance(spec.get("markers"), str):
            markers = f" ; {spec['markers']}"
        spec = spec.get("version", "*")
    return f"{name}{extras}{_poetry_specifier(str(spec))}{markers}"


def _poetry_specifier(constraint: str) -> str:
    """A poetry constraint (`^1.2`, `~1.2.3`, `1.4`, `>=2,<3`, `*`) as a PEP 440 specifier."""
    parts = []
    for piece in (p.strip() for p in constraint.split(",")):
        if piece in ("", "*"):
            continue
        if piece[0] in "^~" and piece[1:2] != "=":
            numbers = [int(n) for n in re.findall(r"\d+", piece)] or [0]
            if piece[0] == "^":
                first = next((i for i, n in enumerate(numbers) if n), len(numbers) - 1)
            else:
                first = min(1, len(numbers) - 1)
            upper = [*numbers[:first], numbers[first] + 1]
            base = ".".join(map(str, numbers))
            parts.append(f">={base},<{'.'.join(map(str, upper))}")
        elif piece[0].isdigit():
            parts.append(f"=={piece}")
        else:
            parts.append(piece)
    return ",".join(parts)


def normalise_name(name: str) -> str:
    """A distribution name as PEP 503 compares it."""
    return re.sub(r"[-_.]+", "-", name).lower()
