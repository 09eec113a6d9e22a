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


def planned_module(planned: list[str], subject_module: str | None) -> str | None:
    """Where a function the change creates goes when no contract says: the module of the
    ticket's subject if the plan changes it, else the one source module the plan changes."""
    modules = {m for m in map(module_of, planned) if m is not None}
    if subject_module in modules:
        return subject_module
    return modules.pop() if len(modules) == 1 else None


def module_tree(repo_dir: Path, module: str) -> ast.Module | None:
    """The parsed file of an importable module of the repository (`src/` layouts included)."""
    base = Path(*module.split("."))
    for root in (repo_dir, repo_dir / "src"):
        for path in (root / base.with_suffix(".py"), root / base / "__init__.py"):
            if path.is_file():
                try:
                    return ast.parse(path.read_text(encoding="utf-8"))
                except (SyntaxError, UnicodeDecodeError, ValueError):
                    return None
    return None


def module_binds(repo_dir: Path, module: str, name: str) -> bool:
    """Whether the module's file binds `name` at its top level (a constant, a function, a
    class or an import), so that `from module import name` works."""
    tree = module_tree(repo_dir, module)
    return tree is not None and name in top_level_names(tree)


def function_in(repo_dir: Path, module: str, name: str) -> ast.FunctionDef | None:
    """The top-level function `name` the module's file defines, if it does."""
    tree = module_tree(repo_dir, module)
    found = [n for n in (tree.body if tree else []) if isinstance(n, ast.FunctionDef)]
    return next((n for n in found if n.name == name), None)


def top_level_names(tree: ast.Module) -> set[str]:
    """The names a module binds at its top level."""
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names |= {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names |= {(a.asname or a.name).split(".")[0] for a in node.names}
    return names
