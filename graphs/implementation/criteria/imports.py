"""What a written test imports: names the repository binds, and those it forgot to import."""

import ast
import builtins
from pathlib import Path

from graphs.implementation.criteria.modules import (
    function_in,
    module_binds,
    module_defining,
    top_level_names,
)


def imports_known_names(node: ast.Import | ast.ImportFrom, repo_dir: Path) -> bool:
    """`import pytest`, or names a repository module defines, imported from it."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names] == ["pytest"]
    module = node.module
    return (
        node.level == 0
        and module is not None
        and all(
            module_defining(repo_dir, a.name) == module or module_binds(repo_dir, module, a.name)
            for a in node.names
        )
    )


def imported_functions(
    imports: list[ast.Import | ast.ImportFrom], repo_dir: Path
) -> dict[str, ast.FunctionDef]:
    """The repository's functions a test module imports, by the name it calls them."""
    found: dict[str, ast.FunctionDef] = {}
    for node in imports:
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                function = function_in(repo_dir, node.module, alias.name)
                if function is not None:
                    found[alias.asname or alias.name] = function
    return found


def unbound_names(function: ast.FunctionDef, bound: set[str]) -> set[str]:
    """The names a test reads that neither it, `bound` nor Python's builtins bind."""
    names = [n for n in ast.walk(function) if isinstance(n, ast.Name)]
    stored = {n.id for n in names if not isinstance(n.ctx, ast.Load)}
    stored |= {a.arg for a in ast.walk(function) if isinstance(a, ast.arg)}
    read = {n.id for n in names if isinstance(n.ctx, ast.Load)}
    return {name for name in read - stored - bound if not hasattr(builtins, name)}


def forgotten_imports(tree: ast.Module, repo_dir: Path) -> list[ast.ImportFrom]:
    """Imports of the repository's classes and functions the module's tests use but never
    import (the small model built a `Parcel` it did not import, and its test was broken),
    when one module of the repository defines the name."""
    bound = top_level_names(tree)
    unbound: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            unbound |= unbound_names(node, bound)
    found = []
    for name in sorted(unbound):
        module = module_defining(repo_dir, name)
        if module is not None:
            found.append(ast.ImportFrom(module=module, names=[ast.alias(name=name)], level=0))
    return found
