"""Criteria that state an error but no call ("A negative rate raises ValueError") as tests.

The model picks the call; only a `pytest.raises` of the error the criterion names, around
calls of the repository's own names, is kept. Such a test states no computed value, so the
small model's usual mistake in tests (a wrong expected number) cannot enter it.
"""

import ast
import re
from pathlib import Path

from graphs.implementation.coverage import ticket_criteria
from graphs.implementation.examples import RAISING, is_builtin_exception, module_defining

RAISES = re.compile(r"\braises?\s+(?:an?\s+)?([A-Z]\w*(?:Error|Exception))\b")
EXISTING = re.compile(r"\b(still|already|as before|unchanged)\b", re.IGNORECASE)


def error_criteria(criteria_text: str | None) -> dict[str, set[str]]:
    """Each criterion saying some input raises a built-in error without spelling the call,
    with the errors it names (errors the code raises already, "still", are left out)."""
    found: dict[str, set[str]] = {}
    for criterion in ticket_criteria(criteria_text):
        if EXISTING.search(criterion) or RAISING.search(criterion):
            continue
        errors = {e for e in RAISES.findall(criterion) if is_builtin_exception(e)}
        if errors:
            found[criterion] = errors
    return found


def is_raises(item: ast.withitem, errors: set[str]) -> bool:
    """Whether a `with` item is `pytest.raises(E, ...)` for one of the errors."""
    call = item.context_expr
    return (
        isinstance(call, ast.Call)
        and ast.unparse(call.func) == "pytest.raises"
        and bool(call.args)
        and isinstance(call.args[0], ast.Name)
        and call.args[0].id in errors
    )


def checks_only_errors(function: ast.FunctionDef, errors: set[str]) -> bool:
    """Whether a test only sets up values and expects a stated error around its calls."""
    if any(isinstance(node, ast.Assert) for node in ast.walk(function)):
        return False
    withs = [s for s in function.body if isinstance(s, ast.With)]
    setup = [s for s in function.body if not isinstance(s, ast.With)]
    return (
        bool(withs)
        and all(isinstance(s, ast.Assign | ast.Expr) for s in setup)
        and all(len(w.items) == 1 and is_raises(w.items[0], errors) for w in withs)
        and all(isinstance(s, ast.Assign | ast.Expr) for w in withs for s in w.body)
    )


def imports_known_names(node: ast.Import | ast.ImportFrom, repo_dir: Path) -> bool:
    """`import pytest`, or names a repository module defines, imported from it."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names] == ["pytest"]
    return node.level == 0 and all(
        module_defining(repo_dir, a.name) == node.module for a in node.names
    )


def error_tests(
    text: str, criterion: str, errors: set[str], repo_dir: Path, first: int = 1
) -> tuple[list[str], list[str]]:
    """The imports and the tests of a model's module that each only expect a stated error,
    renamed `test_error_N` from `first`, the criterion as their docstring; nothing when the
    module does not parse or imports elsewhere."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return [], []
    imports = [n for n in tree.body if isinstance(n, ast.Import | ast.ImportFrom)]
    if not all(imports_known_names(n, repo_dir) for n in imports):
        return [], []
    tests: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name.startswith("test"):
            if checks_only_errors(node, errors) and not node.args.args:
                node.name = f"test_error_{first + len(tests)}"
                node.decorator_list = []
                if ast.get_docstring(node) is not None:
                    node.body = node.body[1:]
                node.body.insert(0, ast.Expr(ast.Constant(criterion)))
                tests.append(ast.unparse(node) + "\n")
    return ([ast.unparse(n) for n in imports] if tests else []), tests


def with_error_tests(stated: str | None, key: str, imports: list[str], tests: list[str]) -> str:
    """The acceptance test module: the stated examples, then the error tests."""
    head, body = (stated or "").partition("\n\n\ndef ")[::2]
    lines = head.splitlines() or [f'"""Acceptance tests of {key}: stated examples and errors."""']
    wanted = ["import pytest", *imports]
    lines += [line for line in dict.fromkeys(wanted) if line not in lines]
    parts = ["\n".join(lines) + "\n"] + ([f"def {body.rstrip()}\n"] if body else []) + tests
    return "\n\n".join(parts)
