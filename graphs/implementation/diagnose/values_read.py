"""The module-level names a function reads: the data that decides what it accepts."""

import ast

MAX_NAMES = 3
LINE_CHARS = 160


def enclosing_function(
    tree: ast.Module, line: int
) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    """The innermost function whose lines hold `line`."""
    found = None
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            end = node.end_lineno or node.lineno
            if node.lineno <= line <= end and (found is None or node.lineno > found.lineno):
                found = node
    return found


def module_assignments(tree: ast.Module) -> dict[str, ast.stmt]:
    """The module's top-level assignments by the name they bind."""
    bound: dict[str, ast.stmt] = {}
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else []
        if isinstance(node, ast.AnnAssign) and node.value is not None:
            targets = [node.target]
        for target in targets:
            if isinstance(target, ast.Name):
                bound[target.id] = node
    return bound


def values_read(text: str, line: int) -> list[ast.stmt]:
    """The module-level assignments whose names the function around `line` reads."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return []
    function = enclosing_function(tree, line)
    if function is None:
        return []
    bound = module_assignments(tree)
    read = [
        n.id for n in ast.walk(function) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
    ]
    return [bound[name] for name in dict.fromkeys(n for n in read if n in bound)][:MAX_NAMES]


def names_read(text: str, line: int) -> list[str]:
    """The module-level values the function around `line` reads, each as "`code` (line N)"."""
    lines = text.splitlines()
    described = []
    for statement in values_read(text, line):
        code = " ".join(lines[statement.lineno - 1].split())[:LINE_CHARS]
        described.append(f"`{code}` (line {statement.lineno})")
    return described
