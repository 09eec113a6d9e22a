"""Splitting a test file by its syntax tree: the hidden tests out, everything they need kept."""

import ast
import re
from typing import TypeGuard

from pydantic import BaseModel

from integrations.workspace.junit import CaseResult

_PARAMS = re.compile(r"\[.*\]$")


class FunctionRef(BaseModel, frozen=True):
    """A test function of a file: its class (None at module level) and its name."""

    cls: str | None
    name: str

    def __str__(self) -> str:
        return f"{self.cls}::{self.name}" if self.cls else self.name


def is_test_function(node: ast.stmt) -> TypeGuard[ast.FunctionDef | ast.AsyncFunctionDef]:
    """A function pytest collects as a test."""
    return isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test")


def functions_in(source: str) -> list[FunctionRef]:
    """The test functions and methods of a file, in order."""
    names: list[FunctionRef] = []
    for node in ast.parse(source).body:
        if is_test_function(node):
            names.append(FunctionRef(cls=None, name=node.name))
        elif isinstance(node, ast.ClassDef):
            names += [
                FunctionRef(cls=node.name, name=m.name) for m in node.body if is_test_function(m)
            ]
    return names


def function_of(case: CaseResult, source: str) -> FunctionRef:
    """The test function of a junit case (its parameters dropped) in the file's source."""
    classes = {node.name for node in ast.parse(source).body if isinstance(node, ast.ClassDef)}
    last = case.classname.rsplit(".", 1)[-1]
    return FunctionRef(cls=last if last in classes else None, name=_PARAMS.sub("", case.name))


def span(node: ast.stmt) -> tuple[int, int]:
    """The lines of a statement, its decorators included (1-based, inclusive)."""
    decorators = getattr(node, "decorator_list", [])
    start = min([node.lineno, *(d.lineno for d in decorators)])
    return start, node.end_lineno or node.lineno


def base_names(tree: ast.Module) -> set[str]:
    """The names the file's classes inherit from (such a class cannot go, its heirs need it)."""
    return {
        base.id if isinstance(base, ast.Name) else getattr(base, "attr", "")
        for node in tree.body
        if isinstance(node, ast.ClassDef)
        for base in node.bases
    }


def without(source: str, drop: list[tuple[int, int]]) -> str:
    """The source with the given line spans removed, each with the blank lines before it."""
    lines = source.splitlines(keepends=True)
    gone: set[int] = set()
    for start, end in drop:
        while start > 1 and not lines[start - 2].strip():  # lines[start - 2] is line start - 1
            start -= 1
        gone.update(range(start, end + 1))
    kept = "".join(line for number, line in enumerate(lines, 1) if number not in gone)
    return kept.rstrip("\n") + "\n"


def spans_of(source: str, hidden: set[FunctionRef], keep_hidden: bool) -> list[tuple[int, int]]:
    """The spans to drop: the hidden tests (`keep_hidden` False) or every other test."""
    drop: list[tuple[int, int]] = []
    tree = ast.parse(source)
    inherited = base_names(tree)
    for node in tree.body:
        if is_test_function(node):
            if (FunctionRef(cls=None, name=node.name) in hidden) != keep_hidden:  # type: ignore[attr-defined]
                drop.append(span(node))
        elif isinstance(node, ast.ClassDef):
            tests = {
                i: FunctionRef(cls=node.name, name=m.name)  # type: ignore[attr-defined]
                for i, m in enumerate(node.body)
                if is_test_function(m)
            }
            gone = {i for i, name in tests.items() if (name in hidden) != keep_hidden}
            if tests and gone == set(tests) and node.name not in inherited:
                drop.append(span(node))  # a test class left with no test goes whole
            else:
                drop += [span(node.body[i]) for i in sorted(gone)]
    return drop


def split_tests(source: str, hidden: set[FunctionRef]) -> tuple[str, str]:
    """The file without the hidden tests, and the hidden tests with the imports, fixtures,
    helpers and constants of the file (a class keeps only its hidden methods)."""
    visible = without(source, spans_of(source, hidden, keep_hidden=False))
    kept = without(source, spans_of(source, hidden, keep_hidden=True))
    return visible, kept
