"""Methods written outside their class: an answer's new module-level `def m(self, ...)` is put
into the class it belongs to (the one the plan's contract names, else the file's only class)."""

import ast

from graphs.implementation.worker.named_functions import parsed
from graphs.schemas import Contract

SELF_NAMES = ("self", "cls")


def stray_methods(tree: ast.Module, before: ast.Module | None) -> list[ast.FunctionDef]:
    """Module-level functions whose first parameter is `self` or `cls`, new in the answer."""
    old = (
        set() if before is None else {n.name for n in before.body if isinstance(n, ast.FunctionDef)}
    )
    return [
        node
        for node in tree.body
        if isinstance(node, ast.FunctionDef) and node.name not in old
        and node.args.args and node.args.args[0].arg in SELF_NAMES
    ]  # fmt: skip


def owner_class(
    method: str, classes: dict[str, ast.ClassDef], contracts: list[Contract], path: str
) -> ast.ClassDef | None:
    """The class a method belongs in: a contract of this file names `Class.method`; else the
    only class the file defines."""
    for contract in contracts:
        if contract.path != path:
            continue
        head = contract.signature.strip().removeprefix("def ").split("(", 1)[0].strip()
        owner, _, name = head.rpartition(".")
        if name == method and owner.split(".")[-1] in classes:
            return classes[owner.split(".")[-1]]
    return next(iter(classes.values())) if len(classes) == 1 else None


def span(node: ast.stmt) -> tuple[int, int]:
    """The node's first line (decorators included) and last line, 0-based and inclusive."""
    first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])
    return first - 1, (node.end_lineno or node.lineno) - 1


def indented(lines: list[str], indent: str) -> list[str]:
    """The lines, each moved right by `indent` (blank lines stay blank)."""
    return [f"{indent}{line}" if line.strip() else line for line in lines]


def place_methods(
    path: str, before: str, content: str, contracts: list[Contract]
) -> tuple[str, list[str]]:
    """The content with each stray method moved into its class (replacing a method of that
    name there); returns the names moved. Content that does not parse is returned as it is."""
    tree = parsed(content)
    if tree is None or not path.endswith(".py"):
        return content, []
    classes = {node.name: node for node in tree.body if isinstance(node, ast.ClassDef)}
    moves = []
    for method in stray_methods(tree, parsed(before)):
        owner = owner_class(method.name, classes, contracts, path)
        if owner is not None:
            moves.append((method, owner))
    if not moves:
        return content, []
    lines = content.splitlines()
    edits: list[tuple[int, int, list[str]]] = []  # (first, last, replacement), 0-based lines
    for method, owner in moves:
        first, last = span(method)
        body = lines[first : last + 1]
        indent = " " * (owner.body[0].col_offset if owner.body else 4)
        moved = indented(body, indent)
        existing = [n for n in owner.body if isinstance(n, ast.FunctionDef)
                    and n.name == method.name]  # fmt: skip
        if existing:
            old_first, old_last = span(existing[0])
            edits.append((old_first, old_last, moved))
        else:
            end = span(owner)[1]
            edits.append((end + 1, end, ["", *moved]))  # inserted after the class's last line
        edits.append((first, last, []))
    for first, last, replacement in sorted(edits, key=lambda e: (e[0], e[1]), reverse=True):
        lines[first : last + 1] = replacement
    text = "\n".join(lines).rstrip("\n") + "\n"
    return text, [method.name for method, _ in moves]
