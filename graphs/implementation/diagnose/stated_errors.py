"""Errors the ticket says the change raises that no planned source file raises.

A small model's plan can leave out "a volume below 0 or above 100 raises ValueError", its
worker write no check, no test cover the criterion, and QA pass the revision. A look at
the planned files' `raise` statements says so without a model call.
"""

import ast
import re

RAISES = re.compile(r"\braises?\s+(?:an?\s+)?([A-Z]\w*(?:Error|Exception))\b")


def stated_errors(criteria: list[str]) -> dict[str, str]:
    """Each error a criterion says the code raises, with the first such criterion: one it
    raises already must still be raised after the change."""
    found: dict[str, str] = {}
    for criterion in criteria:
        for error in RAISES.findall(criterion):
            found.setdefault(error, criterion)
    return found


def raised_names(tree: ast.Module) -> set[str] | None:
    """The exception names a module raises by name; None when one of its raises names none
    (`raise error`, a re-raise of what it caught), so that it might raise anything."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Raise):
            continue
        if node.exc is None:  # a re-raise of what it caught
            return None
        raised = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
        name = raised.attr if isinstance(raised, ast.Attribute) else getattr(raised, "id", None)
        if name is None or not name[:1].isupper():
            return None
        names.add(name)
    return names


def subclasses(trees: list[ast.Module]) -> dict[str, set[str]]:
    """The base class names of every class the modules define."""
    bases: dict[str, set[str]] = {}
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                bases[node.name] = {ast.unparse(b).rsplit(".", 1)[-1] for b in node.bases}
    return bases


def is_kind_of(name: str, error: str, bases: dict[str, set[str]]) -> bool:
    """Whether an exception class is `error` or derives from it among the modules' classes."""
    seen: set[str] = set()
    pending = [name]
    while pending:
        current = pending.pop()
        if current == error:
            return True
        if current not in seen:
            seen.add(current)
            pending.extend(bases.get(current, ()))
    return False


def unraised_errors(criteria: list[str], sources: list[str]) -> list[tuple[str, str]]:
    """The errors the criteria say are raised that none of the sources raises, each with its
    criterion; none when a source does not parse or raises something it does not name."""
    wanted = stated_errors(criteria)
    if not wanted or not sources:
        return []
    try:
        trees = [ast.parse(source) for source in sources]
    except (SyntaxError, ValueError):
        return []
    raised: set[str] = set()
    for tree in trees:
        names = raised_names(tree)
        if names is None:
            return []
        raised |= names
    bases = subclasses(trees)
    return [
        (error, criterion)
        for error, criterion in wanted.items()
        if not any(is_kind_of(name, error, bases) for name in raised)
    ]
