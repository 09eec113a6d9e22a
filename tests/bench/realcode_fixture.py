"""A tiny fake project for the real-code generator's tests: its sdist and its project file."""

import hashlib
import io
import json
import tarfile
from pathlib import Path

MODULE = '''"""Tiny arithmetic."""


def add(a, b):
    """The sum."""
    return a + b


def ordinal(n):
    """1st, 2nd, 3rd, 4th, 11th."""
    if n % 100 in (11, 12, 13):
        return f"{n}th"
    return f"{n}" + {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
'''

TESTS = '''import pytest

from fakecalc import add, ordinal

TEENS = [11, 12, 13]


@pytest.fixture
def seven():
    return 7


def helper(n):
    return ordinal(n)


def test_add(seven):
    assert add(seven, 1) == 8


@pytest.mark.parametrize("n", [1, *TEENS])
def test_ordinal_cases(n):
    assert helper(n).endswith("st" if n == 1 else "th")


class TestOrdinal:
    """Ordinals."""

    def test_first(self):
        assert ordinal(1) == "1st"

    def test_eleventh(self, seven):
        assert ordinal(seven + 4) == "11th"


def test_fourth():
    assert ordinal(4) == "4th"
'''

CONFTEST = """import pytest


@pytest.fixture
def zero():
    return 0
"""

FIND = """    if n % 100 in (11, 12, 13):
        return f"{n}th"
"""


def build_sdist(cache: Path, name: str = "fakecalc-1.0.tar.gz") -> tuple[Path, str]:
    """A fake sdist in `cache` and its sha256."""
    cache.mkdir(parents=True, exist_ok=True)
    path = cache / name
    files = {
        "fakecalc/__init__.py": MODULE,
        "tests/test_calc.py": TESTS,
        "tests/conftest.py": CONFTEST,
        "setup.py": "",
    }
    with tarfile.open(path, "w:gz") as archive:
        for relative, text in files.items():
            data = text.encode()
            info = tarfile.TarInfo(f"fakecalc-1.0/{relative}")
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return path, hashlib.sha256(path.read_bytes()).hexdigest()


def project_toml(
    sha256: str,
    find: str = FIND,
    key: str = "FAKEC-1",
    name: str = "fakecalc-teens",
    replace: str = "",
    module: str = "fakecalc/__init__.py",
    change_path: str = "fakecalc/__init__.py",
) -> str:
    """The fake project's file: one ticket that breaks the teens' ordinals."""
    return f'''[source]
name = "fakecalc"
version = "1.0"
sdist = "fakecalc-1.0.tar.gz"
sha256 = "{sha256}"
license = "MIT"
modules = [{{path = "{module}"}}]
tests = [{{path = "tests/test_calc.py"}}, {{path = "tests/conftest.py"}}]
pythonpath = "."

[[tickets]]
name = "{name}"
key = "{key}"
kind = "bug"
summary = "ordinal() says 11st"
description = "ordinal(11) gives 11st."
acceptance_criteria = ["ordinal(11) is 11th"]
answers = "Only the teens."

[[tickets.changes]]
path = "{change_path}"
find = {json.dumps(find)}
replace = {json.dumps(replace)}
'''
