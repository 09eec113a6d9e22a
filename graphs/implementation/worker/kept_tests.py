"""A test file the plan adds to keeps its own tests: an answer that rewrote them gets them back.

A small model asked to add a test to a test file writes the whole file again, and a test it
changed or dropped on the way breaks what the repository already checked. What the answer
adds (new imports, new functions and classes, new names) is kept after the file as it was.
"""

import ast

from graphs.implementation.worker.named_functions import parsed

Definition = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef


def _source(lines: list[str], node: ast.stmt) -> str:
    """The statement's lines as written, decorators included."""
    decorators = getattr(node, "decorator_list", [])
    start = min([node.lineno, *(d.lineno for d in decorators)])
    return "".join(lines[start - 1 : node.end_lineno])


def _defined(node: ast.stmt) -> set[str]:
    """The names a top-level statement binds."""
    if isinstance(node, Definition):
        return {node.name}
    if isinstance(node, ast.Assign | ast.AnnAssign):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        return {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
    return set()


def with_existing_tests(original: str, answer: str) -> tuple[str, list[str]]:
    """The answer, or, when it changed or dropped a definition of the original, the original
    with what the answer adds after it; and the names put back."""
    before, after = parsed(original), parsed(answer)
    if before is None or after is None:
        return answer, []  # not Python both ways: the gate says what is wrong
    answered = {ast.dump(node) for node in after.body}
    restored = [
        node.name
        for node in before.body
        if isinstance(node, Definition) and ast.dump(node) not in answered
    ]
    if not restored:
        return answer, []
    existing = {ast.dump(node) for node in before.body}
    names = set().union(*(_defined(node) for node in before.body))
    lines = answer.splitlines(keepends=True)
    imports, added = [], []
    for node in after.body:
        if ast.dump(node) in existing:
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            imports.append(_source(lines, node).rstrip("\n"))
        elif (bound := _defined(node)) and not bound & names:
            added.append(_source(lines, node).rstrip("\n"))
    parts = [original.rstrip("\n")]
    if imports:
        parts.append("\n".join(imports))
    parts += added
    return "\n\n\n".join(parts) + "\n", restored
