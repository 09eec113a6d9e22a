"""Acceptance criteria that state an example (`f(x)` returns `y`), written as tests as stated.

The small model's own tests of a criterion are often wrong: for `chunked([1, 2, 3], 2)`
returns `[[1, 2], [3]]` it wrote a test expecting a ValueError, and the code was fixed to
that. An example the ticket spells is a test already; it costs no model call.
"""

import ast
import re
from pathlib import Path

from graphs.implementation.coverage import ticket_criteria
from graphs.implementation.failures import is_test_file

EXAMPLE = re.compile(r"`([A-Za-z_][\w.]*\([^`]*\))`\s+(?:returns|gives|is)\s+`([^`]+)`")
PLAIN_TEXT = re.compile(r"^[\w .,!?'…-]+$")
SKIPPED_DIRS = {".git", ".venv", "venv", "node_modules", "build", "dist", "tests", "test"}


def parses(text: str) -> ast.expr | None:
    """The expression a text is, or None when it is not one."""
    try:
        return ast.parse(text.strip(), mode="eval").body
    except SyntaxError:
        return None


def examples(criteria_text: str | None) -> list[tuple[str, str]]:
    """Each (call, expected value as Python) a criterion states, the call of a plain
    function name."""
    found: list[tuple[str, str]] = []
    for criterion in ticket_criteria(criteria_text):
        for call, value in EXAMPLE.findall(criterion):
            node = parses(call)
            right = expected(value.strip())
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and right:
                found.append((call.strip(), right))
    return found


def module_defining(repo_dir: Path, name: str) -> str | None:
    """The importable module that defines a top-level function `name`, if one module does."""
    modules = []
    for path in sorted(repo_dir.rglob("*.py")):
        relative = path.relative_to(repo_dir)
        if SKIPPED_DIRS.intersection(relative.parts[:-1]) or is_test_file(relative.name):
            continue
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except (SyntaxError, UnicodeDecodeError, ValueError):
            continue
        if any(isinstance(n, ast.FunctionDef) and n.name == name for n in tree.body):
            parts = list(relative.with_suffix("").parts)
            parts = parts[1:] if parts[0] == "src" else parts
            modules.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return modules[0] if len(modules) == 1 else None


def expected(value: str) -> str | None:
    """The right-hand side of the assertion (floats compared within rounding; a plain word
    such as `IV` or `hello-world` is the text it spells), or None when it is neither."""
    node = parses(value)
    if node is None or any(isinstance(n, ast.Name) for n in ast.walk(node)):
        return repr(value) if PLAIN_TEXT.match(value) else None
    floats = any(isinstance(n, ast.Constant) and isinstance(n.value, float) for n in ast.walk(node))
    return f"pytest.approx({value})" if floats else value


def example_tests(key: str, criteria_text: str | None, repo_dir: Path) -> str | None:
    """A test module with one test per example the ticket's criteria state, importing each
    function from the module that defines it; None when no example can be tested that way."""
    imports: dict[str, set[str]] = {}
    tests: list[str] = []
    stated = examples(criteria_text)
    names = {call.split("(", 1)[0] for call, _ in stated}
    modules = {name: module_defining(repo_dir, name) for name in names}  # one walk a name
    for call, value in stated:
        name = call.split("(", 1)[0]
        module = modules[name]
        if module is None:
            continue
        imports.setdefault(module, set()).add(name)
        number = len(tests) + 1
        tests.append(f"def test_example_{number}():\n    assert {call} == {value}\n")
    if not tests:
        return None
    lines = [f'"""Examples of {key}\'s acceptance criteria, as the ticket states them."""', ""]
    lines += ["import pytest", ""] if any("pytest.approx" in t for t in tests) else []
    lines += [f"from {m} import {', '.join(sorted(n))}" for m, n in sorted(imports.items())]
    return "\n".join(lines) + "\n\n\n" + "\n\n".join(tests)
