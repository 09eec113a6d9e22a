"""The keyword index is built once per content: other checkouts of the same files reuse it."""

import shutil
from pathlib import Path

from graphs.analysis import index_repository


def checkout(root: Path, name: str, body: str) -> Path:
    """A small repository with one source file."""
    repo = root / name
    (repo / "pkg").mkdir(parents=True)
    (repo / "pkg" / "tides.py").write_text(body)
    return repo


def test_the_same_files_elsewhere_reuse_the_index(tmp_path: Path) -> None:
    first = checkout(tmp_path, "one", "def high_tide(hour):\n    return hour + 12.4\n")
    second = tmp_path / "two"
    shutil.copytree(first, second)
    assert index_repository(second) is index_repository(first)


def test_changed_content_gets_its_own_index(tmp_path: Path) -> None:
    before = index_repository(checkout(tmp_path, "a", "def high_tide(x):\n    return x\n"))
    after = index_repository(checkout(tmp_path, "b", "def moor_boat(x):\n    return x\n"))
    assert after is not before
    assert [s.path for s in after.context_query("moor boat")] == ["pkg/tides.py"]
    assert before.context_query("moor boat") == []
