"""What tox's test environment installs, read from `tox.ini` as tox reads its `[testenv]`:
`deps` (requirements and `-r` files) and `extras` (the project's own optional dependencies)."""

import configparser
import re
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class ToxEnvironment:
    """The plain `[testenv]`'s requirements, requirement files and extras."""

    requirements: list[str] = field(default_factory=list)
    requirement_files: list[str] = field(default_factory=list)
    extras: list[str] = field(default_factory=list)


def read_tox(root: Path) -> ToxEnvironment | None:
    """The `[testenv]` of `root/tox.ini`, or None when there is none to read."""
    config = configparser.ConfigParser(interpolation=None, strict=False)
    try:
        if not config.read(root / "tox.ini", encoding="utf-8"):
            return None
    except (configparser.Error, UnicodeDecodeError):
        return None
    if not config.has_section("testenv"):
        return None
    found = ToxEnvironment()
    for line in requirement_lines(config.get("testenv", "deps", fallback="")):
        # Substitutions ({[x]deps}, {posargs}), factor conditions (py37: x) and other options
        # (-c, -e) are tox's business.
        if "{" in line or ":" in line[:20]:
            continue
        if line.startswith("-r"):
            relative = line.removeprefix("-r").strip()
            if (root / relative).is_file():
                found.requirement_files.append(relative)
        elif not line.startswith("-"):
            found.requirements.append(line)
    extras = config.get("testenv", "extras", fallback="")
    found.extras = [e for e in re.split(r"[\s,]+", extras) if e and "{" not in e and ":" not in e]
    return found


def requirement_lines(text: str) -> list[str]:
    """The lines of a requirements list, comments and blank lines left out."""
    lines = (line.split(" #", 1)[0].strip() for line in text.splitlines())
    return [line for line in lines if line and not line.startswith("#")]
