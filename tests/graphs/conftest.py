"""Fixtures for the graph tests: a tiny repository, a ticket and its analysis."""

from pathlib import Path

import pytest

from graphs.schemas import Analysis, PlannedFile, TicketContext

TINY_REPO = {
    ".gitignore": "# generated\nbuild/\n*.log\n/private\n",
    "pyproject.toml": '[project]\nname = "calc"\n\n[tool.pytest.ini_options]\n'
    'testpaths = ["tests"]\n',
    "calc/__init__.py": '"""A tiny calculator."""\n',
    "calc/ops.py": "def add(a: int, b: int) -> int:\n    return a + b\n",
    "calc/strings.py": "def shout(text: str) -> str:\n    return text.upper()\n",
    "tests/test_ops.py": "from calc.ops import add\n\n\ndef test_add() -> None:\n"
    "    assert add(1, 2) == 3\n",
    "build/generated.py": "GENERATED = True\n",
    "debug.log": "noise\n",
    "private/notes.py": "SECRET = 1\n",
    ".venv/lib/site.py": "x = 1\n",
    "node_modules/pkg/index.js": "module.exports = 1;\n",
    "calc/__pycache__/ops.cpython-311.pyc": "compiled\n",
}


def write_tree(root: Path, files: dict[str, str]) -> Path:
    """Write files (relative path -> text) under root."""
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


@pytest.fixture
def tiny_repo(tmp_path: Path) -> Path:
    """A small Python project with pytest tests and ignored clutter."""
    return write_tree(tmp_path / "repo", TINY_REPO)


@pytest.fixture
def ticket() -> TicketContext:
    """A ticket that names a file of the tiny repository."""
    return TicketContext(
        key="CALC-7",
        summary="Add a subtract function",
        description="Add subtract(a, b) to calc/ops.py next to add.",
        labels=["backend"],
        acceptance_criteria="subtract(5, 3) == 2",
    )


@pytest.fixture
def analysis() -> Analysis:
    """What the analysis of the tiny repository says."""
    return Analysis(
        summary="A tiny calculator package tested with pytest.",
        languages=["Python"],
        frameworks=["pytest"],
        test_command="python -m pytest -q",
        files=["calc/__init__.py", "calc/ops.py", "calc/strings.py", "tests/test_ops.py"],
    )


@pytest.fixture
def two_files() -> list[PlannedFile]:
    """Two planned modifications of the tiny repository."""
    return [
        PlannedFile(path="calc/ops.py", action="modify", purpose="Add subtract(a, b)."),
        PlannedFile(path="calc/strings.py", action="modify", purpose="Add whisper(text)."),
    ]
