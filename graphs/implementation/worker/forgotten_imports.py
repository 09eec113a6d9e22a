"""Imports a model forgot: a well-known module used by name (`pytest.raises`), or a name of
`typing` read in an annotation (`List[str]`), but never bound."""

import ast

# Modules a small model uses without importing; each is only added where the file uses
# `name.attribute` and binds the name nowhere, so a local variable called `re` is left alone.
KNOWN_MODULES = (
    "collections",
    "datetime",
    "decimal",
    "functools",
    "itertools",
    "json",
    "math",
    "os",
    "pytest",
    "re",
    "string",
    "sys",
)


# Names of `typing` a small model annotates with and forgets to import (`-> Tuple[str, int]`).
TYPING_NAMES = ("Any", "Callable", "DefaultDict", "Dict", "Iterable", "Iterator", "List",
                "Mapping", "Optional", "Sequence", "Set", "Tuple", "Union")  # fmt: skip


def bound_names(tree: ast.Module) -> set[str]:
    """Every name the module binds anywhere: imports, assignments, definitions, arguments."""
    bound: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            bound |= {(a.asname or a.name).split(".")[0] for a in node.names}
        elif isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            bound.add(node.id)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            bound.add(node.name)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, ast.Global | ast.Nonlocal):
            bound |= set(node.names)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            bound.add(node.name)
    return bound


def forgotten_modules(tree: ast.Module) -> list[str]:
    """Known modules the code uses as `name.attribute` without binding the name."""
    used = {
        node.value.id
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
    }
    bound = bound_names(tree)
    return [name for name in KNOWN_MODULES if name in used and name not in bound]


def forgotten_typing(tree: ast.Module) -> list[str]:
    """Names of `typing` the code reads without binding them."""
    read = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    bound = bound_names(tree)
    return [name for name in TYPING_NAMES if name in read and name not in bound]


def insertion_line(tree: ast.Module) -> int:
    """The 0-based line before which imports go: after the docstring and `__future__`."""
    for node in tree.body:
        is_docstring = (
            node is tree.body[0]
            and isinstance(node, ast.Expr)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
        )
        is_future = isinstance(node, ast.ImportFrom) and node.module == "__future__"
        if not (is_docstring or is_future):
            decorators = getattr(node, "decorator_list", [])
            return min([node.lineno, *(d.lineno for d in decorators)]) - 1
    return (tree.body[-1].end_lineno or 0) if tree.body else 0


def add_forgotten_imports(path: str, content: str) -> tuple[str, list[str]]:
    """The file with the imports it forgot added, and the import statements added."""
    if not path.endswith(".py"):
        return content, []
    try:
        tree = ast.parse(content)
    except (SyntaxError, ValueError):  # the gate reports it
        return content, []
    statements = [f"import {name}" for name in forgotten_modules(tree)]
    typing_names = forgotten_typing(tree)
    if typing_names:
        statements.append(f"from typing import {', '.join(typing_names)}")
    if not statements:
        return content, []
    lines = content.splitlines(keepends=True)
    at = insertion_line(tree)
    if at > 0 and not lines[at - 1].endswith("\n"):
        lines[at - 1] += "\n"
    added = [f"{statement}\n" for statement in statements]
    return "".join([*lines[:at], *added, *lines[at:]]), statements
