"""Stub bodies: functions a project promises that do nothing yet."""

import ast

from graphs.implementation.worker.named_functions import parsed
from graphs.mvp.asserting import is_test_file

# Bodies that are placeholders, whatever they are decorated with, unless they are declared
# abstract or overloads (whose bodies are placeholders by design).
PLACEHOLDER_DECORATORS = ("abstractmethod", "overload")


def decorator_names(node: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    """The names of a function's decorators: `abstractmethod` for `@abc.abstractmethod`."""
    names = set()
    for decorator in node.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        if isinstance(target, ast.Attribute):
            names.add(target.attr)
        elif isinstance(target, ast.Name):
            names.add(target.id)
    return names


def is_placeholder(statement: ast.stmt) -> bool:
    """`pass`, `...`, a bare string, or `raise NotImplementedError`."""
    if isinstance(statement, ast.Pass):
        return True
    if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant):
        return statement.value.value is Ellipsis or isinstance(statement.value.value, str)
    if isinstance(statement, ast.Raise) and statement.exc is not None:
        raised = statement.exc.func if isinstance(statement.exc, ast.Call) else statement.exc
        return isinstance(raised, ast.Name) and raised.id == "NotImplementedError"
    return False


def protocol_classes(tree: ast.Module) -> set[int]:
    """The ids of functions declared in `Protocol` classes: interfaces, not code."""
    inside: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            bases = {getattr(base, "id", getattr(base, "attr", "")) for base in node.bases}
            if "Protocol" in bases:
                inside |= {id(item) for item in node.body}
    return inside


def stub_functions(path: str, source: str) -> list[str]:
    """The functions of a module whose bodies only hold placeholders, as `path: name()`."""
    tree = parsed(source)
    if tree is None or is_test_file(path):
        return []
    interfaces = protocol_classes(tree)
    stubs = []
    for node in ast.walk(tree):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        if id(node) in interfaces or decorator_names(node) & set(PLACEHOLDER_DECORATORS):
            continue
        if node.name.startswith("__") and node.name.endswith("__"):
            continue  # a protocol's hook left empty on purpose (`__exit__`), not a feature
        if all(is_placeholder(statement) for statement in node.body):
            stubs.append(f"{path}: {node.name}() is a stub ({first_word(node.body)})")
    return stubs


def first_word(body: list[ast.stmt]) -> str:
    """What the stub's body is, in a word."""
    last = body[-1]
    if isinstance(last, ast.Pass):
        return "pass"
    if isinstance(last, ast.Raise):
        return "raise NotImplementedError"
    if isinstance(last, ast.Expr) and last.value.value is Ellipsis:  # type: ignore[attr-defined]
        return "..."
    return "a docstring only"
