"""Where a Python name lives in a repository: the module defining it, a path's module."""

import ast
import re
from pathlib import Path

from graphs.implementation.revision import is_test_file
from graphs.schemas import Contract

SKIPPED_DIRS = {".git", ".venv", "venv", "node_modules", "build", "dist", "tests", "test"}


def module_defining(repo_dir: Path, name: str, functions_only: bool = False) -> str | None:
    """The importable module that defines a top-level function or class `name` (a function,
    with `functions_only`), if one module does."""
    kinds = (ast.FunctionDef,) if functions_only else (ast.FunctionDef, ast.ClassDef)
    modules = []
    for path in sorted(repo_dir.rglob("*.py")):
        relative = path.relative_to(repo_dir)
        if SKIPPED_DIRS.intersection(relative.parts[:-1]) or is_test_file(relative.name):
            continue
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except (SyntaxError, UnicodeDecodeError, ValueError):
            continue
        module = module_of(relative.as_posix())
        defined = (n for n in tree.body if isinstance(n, kinds))
        if module and any(n.name == name for n in defined):
            modules.append(module)
    return modules[0] if len(modules) == 1 else None


def module_of(path: str) -> str | None:
    """The importable module a Python file's path names (`src/` layouts included)."""
    parts = list(Path(path).with_suffix("").parts)
    parts = parts[1:] if parts and parts[0] == "src" else parts
    if not path.endswith(".py") or not parts or not all(p.isidentifier() for p in parts):
        return None
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def promised_module(contracts: list[Contract], name: str) -> str | None:
    """The module of the one planned source file whose contract defines function `name`."""
    paths = {
        c.path
        for c in contracts
        if re.search(rf"\bdef\s+{re.escape(name)}\s*\(", c.signature) and not is_test_file(c.path)
    }
    return module_of(paths.pop()) if len(paths) == 1 else None
