"""Scanning and indexing real git repositories: problems met on django, numpy and pillow."""

import logging
import os
import subprocess
from pathlib import Path

import pytest

import graphs.analysis.index as index_module
import graphs.analysis.scan as scan_module
from graphs.analysis.gitignore import IgnoreRules
from graphs.analysis.index import CodeIndex
from graphs.analysis.scan import scan_files
from graphs.schemas import Analysis
from tests.graphs.conftest import write_tree


def git(repo: Path, *args: str, stdin: str | None = None) -> str:
    """Run git in `repo`, isolated from the user's and the system's configuration."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env |= {"GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull, "HOME": str(repo)}
    env |= {"GIT_AUTHOR_NAME": "Test", "GIT_AUTHOR_EMAIL": "test@example.com"}
    env |= {"GIT_COMMITTER_NAME": "Test", "GIT_COMMITTER_EMAIL": "test@example.com"}
    done = subprocess.run(
        ["git", *args], cwd=repo, env=env, input=stdin, capture_output=True, text=True, check=True
    )
    return done.stdout


def git_repo(root: Path, files: dict[str, str]) -> Path:
    """A git repository holding `files`, all committed."""
    write_tree(root, files)
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "initial")
    return root


def test_the_cap_keeps_root_files_source_and_tests_rather_than_translations(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = {"tox.ini": "[tox]\n", "pyproject.toml": "[project]\n", "README.rst": "Hi\n"}
    for lang in ("de", "es", "fr", "it", "ja", "nl", "pl", "pt", "ru", "zh"):
        files[f"app/conf/locale/{lang}/LC_MESSAGES/django.po"] = 'msgid "x"\n'
        files[f"app/conf/locale/{lang}/LC_MESSAGES/django.mo"] = "\x00binary"
        files[f"app/static/img/{lang}.png"] = "\x89PNG"
    files |= {f"app/module_{i}.py": "x = 1\n" for i in range(4)}
    files |= {f"tests/test_{i}.py": "def test() -> None: ...\n" for i in range(6)}
    files |= {f"docs/page_{i}.txt": "Docs\n" for i in range(3)}
    files |= {f"app/fixtures/data_{i}.xyz": "data\n" for i in range(5)}
    repo = git_repo(tmp_path / "repo", files)
    monkeypatch.setattr(scan_module, "MAX_FILES", 15)
    found = scan_files(repo)
    assert found == sorted(found) and len(found) == 15
    assert {"tox.ini", "pyproject.toml", "README.rst"} <= set(found)
    assert {f"tests/test_{i}.py" for i in range(6)} <= set(found)
    assert {f"app/module_{i}.py" for i in range(4)} <= set(found)
    assert not [f for f in found if f.endswith((".po", ".mo", ".png", ".xyz"))]
    assert len([f for f in found if f.startswith("docs/")]) == 2


def test_a_git_checkout_lists_what_git_lists(tmp_path: Path) -> None:
    repo = git_repo(tmp_path / "repo", {".gitignore": "build-*\n", "pkg/app.py": "x = 1\n"})
    write_tree(repo, {"doc/build-options.rst": "Options\n", "build-cache.txt": "x\n"})
    git(repo, "add", "-f", "doc/build-options.rst")
    write_tree(repo, {"pkg/new.py": "y = 2\n", ".venv/lib.py": "z = 3\n"})
    (repo / "pkg" / "link.py").symlink_to("app.py")
    git(repo, "add", "pkg/link.py")
    assert scan_files(repo) == [".gitignore", "doc/build-options.rst", "pkg/app.py", "pkg/new.py"]


def test_a_broken_git_directory_falls_back_to_the_walk(tmp_path: Path) -> None:
    repo = write_tree(tmp_path / "repo", {".git/HEAD": "junk\n", ".gitignore": "*.log\n"})
    write_tree(repo, {"a.py": "x = 1\n", "debug.log": "x\n"})
    assert scan_files(repo) == [".gitignore", "a.py"]


@pytest.mark.parametrize("with_git", [True, False])
def test_file_names_that_are_not_utf8_are_skipped(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, with_git: bool
) -> None:
    repo = write_tree(tmp_path / "repo", {"latin1/ok.py": "x = 1\n"})
    if with_git:
        git(repo, "init", "-q")
    with open(os.fsencode(repo / "latin1") + b"/caf\xe9.py", "w") as handle:
        handle.write("x = 1\n")
    with caplog.at_level(logging.WARNING):
        files = scan_files(repo)
    assert files == ["latin1/ok.py"]
    assert "not UTF-8" in caplog.text
    analysis = Analysis(summary="s", languages=[], frameworks=[], test_command=None, files=files)
    assert "latin1/ok.py" in analysis.model_dump_json()


def test_binary_and_garbled_files_are_not_indexed(tmp_path: Path) -> None:
    repo = write_tree(tmp_path / "repo", {"pkg/app.py": "def resize() -> None: ...\n"})
    (repo / "Tests").mkdir()
    (repo / "Tests" / "late_nul.txt").write_bytes(b"resize text\n" * 500 + b"\0tail\n")
    pixels = bytes(range(128, 256)) * 40
    (repo / "Tests" / "image.raw").write_bytes(b"P6\n64 64\n255\nresize\n" + pixels)
    (repo / "Tests" / "controls.txt").write_bytes(b"resize\n" + b"\x01\x02\x03abc\n" * 100)
    (repo / "pkg" / "latin1.py").write_bytes("# caf\xe9\n".encode("latin-1") + b"x = 1\n" * 50)
    index = CodeIndex.build(repo, scan_files(repo))
    assert {path for path, *_ in index.chunks} == {"pkg/app.py", "pkg/latin1.py"}


def test_source_is_indexed_before_assembly_docs_translations_and_minified_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = {
        "aaa/kernel.s": "\tmovq %rax, %rbx\n" * 200,
        "aaa/app.js": "var a=1;" * 1000,
        "aaa/locale/fr.po": 'msgid "solve"\n' * 200,
        "doc/_static/mathjax.js": "function solve() {}\n" * 200,
        "numpy/linalg/linalg.py": "def solve(a, b):\n    return a\n",
    }
    repo = git_repo(tmp_path / "repo", files)
    monkeypatch.setattr(index_module, "MAX_CHUNKS", 3)
    index = CodeIndex.build(repo, sorted(files))
    paths = {path for path, *_ in index.chunks}
    assert "numpy/linalg/linalg.py" in paths
    assert not paths & {"aaa/kernel.s", "aaa/app.js", "aaa/locale/fr.po"}
    assert index.context_query("solve", k=1)[0].path == "numpy/linalg/linalg.py"


def test_an_escaped_trailing_space_is_kept_as_git_keeps_it(tmp_path: Path) -> None:
    patterns = ["space\\ ", "plain  ", "odd\\\\ "]
    repo = git_repo(tmp_path / "repo", {".gitignore": "\n".join(patterns) + "\n"})
    names = ["space ", "space", "plain", "plain ", "odd\\", "odd\\ "]
    answer = git(repo, "check-ignore", "-z", "--stdin", "--no-index", stdin="\0".join(names))
    by_git = set(answer.split("\0")) - {""}
    assert by_git == {"space ", "plain", "odd\\"}
    rules = IgnoreRules.from_patterns(patterns)
    assert {name for name in names if rules.ignored(name, False)} == by_git
