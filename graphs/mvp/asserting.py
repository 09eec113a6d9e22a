"""Tests that test: a test file holds tests, and every test checks something."""

import ast
from pathlib import PurePosixPath

from graphs.implementation.worker.named_functions import parsed

# Calls that check: pytest's, unittest's (`self.assertEqual`, `self.fail`), mocks' `assert_*`.
CHECKING_CALLS = ("raises", "warns", "fail", "approx")
CHECKING_PREFIXES = ("assert", "fail")


def is_test_file(path: str) -> bool:
    """Whether pytest collects the file: `test_*.py` or `*_test.py`."""
    name = PurePosixPath(path).name
    return name.endswith(".py") and (name.startswith("test_") or name.endswith("_test.py"))


def test_functions(tree: ast.Module) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    """The tests pytest collects: `test*` functions and the `test*` methods of `Test*` classes."""
    found: list[ast.FunctionDef | ast.AsyncFunctionDef] = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if node.name.startswith("test"):
                found.append(node)
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            found += [
                item
                for item in node.body
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef))
                and item.name.startswith("test")
            ]
    return found


def called_name(call: ast.Call) -> str:
    """The name a call is made by: `f` for `f()`, `assertEqual` for `self.assertEqual()`."""
    func = call.func
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else ""


def checks(
    node: ast.AST, helpers: dict[str, ast.FunctionDef | ast.AsyncFunctionDef], seen: set[str]
) -> bool:
    """Whether the code asserts, expects an error, or calls a helper of its module that does."""
    for inner in ast.walk(node):
        if isinstance(inner, ast.Assert):
            return True
        if not isinstance(inner, ast.Call):
            continue
        name = called_name(inner)
        if name in CHECKING_CALLS or name.startswith(CHECKING_PREFIXES):
            return True
        if name in helpers and name not in seen:
            seen.add(name)
            if checks(helpers[name], helpers, seen):
                return True
    return False


def module_helpers(tree: ast.Module) -> dict[str, ast.FunctionDef | ast.AsyncFunctionDef]:
    """The functions of a test module that are not tests, by name: a test may check in them."""
    return {
        node.name: node
        for node in ast.walk(tree)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        and not node.name.startswith("test")
    }


def checked(tree: ast.Module) -> list[tuple[ast.FunctionDef | ast.AsyncFunctionDef, bool]]:
    """Each test of a module and whether it checks something."""
    helpers = module_helpers(tree)
    return [(test, checks(test, helpers, set())) for test in test_functions(tree)]


def weak_tests(path: str, source: str) -> list[str]:
    """What is wrong with one test file's tests: none at all, or tests that check nothing."""
    tree = parsed(source)
    if tree is None:
        return []  # the test run reports a file that does not parse
    tests = checked(tree)
    if not tests:
        return [f"{path} holds no test"]
    return [f"{path}::{test.name} asserts nothing" for test, checking in tests if not checking]


def asserting_tests(source: str) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    """The tests of a file that check something."""
    tree = parsed(source)
    return [test for test, checking in checked(tree) if checking] if tree else []
