"""List a repository's files (as git does) and detect its stack."""

import logging
import os
import re
from collections import Counter
from pathlib import Path

from graphs.analysis.files import LANGUAGES, git_files, priority, readable, regular_file, utf8_name
from graphs.analysis.gitignore import IgnoreRules

log = logging.getLogger("ticketsmith.analysis")

ALWAYS_SKIPPED = {".git", ".hg", ".svn", ".venv", "venv", "__pycache__", "node_modules"}
ALWAYS_SKIPPED |= {".mypy_cache", ".pytest_cache", ".ruff_cache", ".tox", ".idea"}
# ticketsmith's own plan records: the workers are given the plan, it is not code to read.
ALWAYS_SKIPPED |= {".ticketsmith"}
MAX_FILES = 5000
MAX_LISTED = 100_000

# framework -> words that reveal it in dependency manifests
PYTHON_FRAMEWORKS = {"fastapi": "FastAPI", "django": "Django", "flask": "Flask"}
JS_FRAMEWORKS = {
    "react": "React",
    "vue": "Vue",
    "express": "Express",
    "next": "Next.js",
    "jest": "Jest",
    "vitest": "Vitest",
}
PYTHON_MANIFESTS = ("pyproject.toml", "setup.cfg", "setup.py", "tox.ini", "Pipfile")


def ignored(relative: str, is_dir: bool, patterns: list[str]) -> bool:
    """Whether a repository-relative path matches root-level .gitignore pattern lines."""
    return IgnoreRules.from_patterns(patterns).ignored(relative, is_dir)


def _walk_files(repo_dir: Path) -> list[str]:
    """Files found walking the tree, every .gitignore honoured (for trees git cannot list)."""
    rules = IgnoreRules()
    rules.load(repo_dir)
    found: list[str] = []
    for root, dirs, files in os.walk(repo_dir):
        base = Path(root).relative_to(repo_dir).as_posix()
        prefix = "" if base == "." else f"{base}/"
        if prefix:
            rules.load(repo_dir, base)
        dirs[:] = sorted(
            d
            for d in dirs
            if d not in ALWAYS_SKIPPED
            and not os.path.islink(Path(root) / d)
            and not rules.ignored(prefix + d, True)
        )
        found.extend(prefix + name for name in files if not rules.ignored(prefix + name, False))
        if len(found) >= MAX_LISTED:
            break
    return found


def scan_files(repo_dir: Path) -> list[str]:
    """Repository-relative paths of the files worth reading, the most useful within the cap; sorted.

    In a git checkout these are the files git lists, else those a walk honouring .gitignore finds.
    """
    listed = git_files(repo_dir)
    if listed is None:
        listed = _walk_files(repo_dir)
    not_utf8 = [name for name in listed if not utf8_name(name)]
    if not_utf8:
        # such names cannot be serialised with the analysis
        log.warning("skipped %d file names that are not UTF-8, e.g. %r", len(not_utf8), not_utf8[0])
    found = [
        name
        for name in listed
        if utf8_name(name)
        and readable(name)
        and ALWAYS_SKIPPED.isdisjoint(name.split("/")[:-1])
        and regular_file(repo_dir / name)
    ]
    return sorted(sorted(found, key=priority)[:MAX_FILES])


def detect_languages(files: list[str]) -> list[str]:
    """Languages by file extension, the most used first."""
    counts = Counter(LANGUAGES[Path(f).suffix] for f in files if Path(f).suffix in LANGUAGES)
    return [language for language, _ in counts.most_common()]


def _read(repo_dir: Path, name: str) -> str:
    path = repo_dir / name
    return path.read_text(errors="replace").lower() if path.is_file() else ""


def detect_frameworks(repo_dir: Path, files: list[str]) -> list[str]:
    """Frameworks and test runners found in manifests and the file layout."""
    python_text = "\n".join(_read(repo_dir, name) for name in PYTHON_MANIFESTS)
    python_text += "\n".join(
        _read(repo_dir, f) for f in files if re.fullmatch(r"requirements[\w.-]*\.txt", f)
    )
    found: list[str] = []
    names = {Path(f).name for f in files}
    has_test_files = any(re.fullmatch(r"test_\w+\.py|\w+_test\.py", n) for n in names)
    if (
        "pytest" in python_text
        or "pytest.ini" in names
        or "conftest.py" in names
        or (has_test_files and any(f.startswith("tests/") for f in files))
    ):
        found.append("pytest")
    for word, framework in PYTHON_FRAMEWORKS.items():
        if re.search(rf"\b{word}\b", python_text):
            found.append(framework)
    if "manage.py" in files and "Django" not in found:
        found.append("Django")
    package_json = _read(repo_dir, "package.json")
    for word, framework in JS_FRAMEWORKS.items():
        if re.search(rf'"{re.escape(word)}"\s*:', package_json):
            found.append(framework)
    return found


def detect_test_command(repo_dir: Path, files: list[str], frameworks: list[str]) -> str | None:
    """The command that runs the project's tests, when one can be told from the tree."""
    if "pytest" in frameworks:
        return "python -m pytest -q"
    if "package.json" in files and '"test"' in _read(repo_dir, "package.json"):
        return "npm test"
    if "go.mod" in files:
        return "go test ./..."
    if "Cargo.toml" in files:
        return "cargo test"
    if "pom.xml" in files:
        return "mvn -q test"
    if "gradlew" in files:
        return "./gradlew test"
    if any(re.fullmatch(r"(.*/)?test\w*\.py", f) for f in files):
        return "python -m unittest"
    return None


def mentioned_files(text: str, files: list[str]) -> list[str]:
    """Files named in a text, by path or by a file name unique in the repository."""
    names = Counter(Path(f).name for f in files)
    found: list[str] = []
    for path in files:
        name = Path(path).name
        candidates = [path] + ([name] if names[name] == 1 and "." in name.strip(".") else [])
        if any(re.search(rf"(?<![\w/.-]){re.escape(c)}(?![\w/-]|\.\w)", text) for c in candidates):
            found.append(path)
    return found


def select_files(files: list[str], first: list[str], limit: int) -> list[str]:
    """At most `limit` files: those in `first`, then the shallowest; sorted."""
    known = set(files)
    chosen = dict.fromkeys(f for f in first if f in known)
    for path in sorted(files, key=lambda f: (f.count("/"), f)):
        if len(chosen) >= limit:
            break
        chosen.setdefault(path)
    return sorted(list(chosen)[:limit])
