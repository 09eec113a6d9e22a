"""What a splice reads of Python statements: their lines, the names they bind, their
parameters, and whether two are the same code."""

import ast

Definition = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef


def first_line(node: ast.stmt) -> int:
    """The statement's first line (0-based), its decorators included."""
    decorators = getattr(node, "decorator_list", [])
    return min([node.lineno, *(d.lineno for d in decorators)]) - 1


def source_lines(lines: list[str], node: ast.stmt) -> list[str]:
    """The statement's lines, decorators included."""
    return lines[first_line(node) : node.end_lineno]


def reindented(lines: list[str], column: int, indent: str) -> list[str]:
    """Lines written at `column` moved to `indent` (lines shallower keep their text)."""
    moved = []
    for line in lines:
        stripped = line[column:] if line[:column].strip() == "" else line.lstrip()
        moved.append(indent + stripped if stripped.strip() else "")
    return moved


def bound_name(node: ast.stmt) -> str | None:
    """The name a definition or a one-name assignment binds."""
    if isinstance(node, Definition):
        return node.name
    if isinstance(node, ast.Assign) and len(node.targets) == 1:
        target = node.targets[0]
        return target.id if isinstance(target, ast.Name) else None
    if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
        return node.target.id
    return None


def imported_names(node: ast.Import | ast.ImportFrom) -> set[str]:
    """The names an import binds."""
    if isinstance(node, ast.Import):
        return {a.asname or a.name.split(".")[0] for a in node.names}
    return {a.asname or a.name for a in node.names}


def is_main_guard(node: ast.stmt) -> bool:
    """Whether the statement is `if __name__ == "__main__":`."""
    if not isinstance(node, ast.If) or not isinstance(node.test, ast.Compare):
        return False
    left, comparators = node.test.left, node.test.comparators
    return (
        isinstance(left, ast.Name)
        and left.id == "__name__"
        and len(comparators) == 1
        and isinstance(comparators[0], ast.Constant)
        and comparators[0].value == "__main__"
    )


def is_docstring(node: ast.stmt) -> bool:
    """Whether the statement is a bare string (a docstring) or a bare `...`."""
    return (
        isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and (isinstance(node.value.value, str) or node.value.value is Ellipsis)
    )


def is_bare_value(node: ast.stmt) -> bool:
    """Whether the statement is a value that does nothing (a docstring, `...`, a dict or a
    list written as a statement): an answer's JSON or prose, never a change."""
    return isinstance(node, ast.Expr) and isinstance(
        node.value, ast.Constant | ast.Dict | ast.List | ast.Tuple | ast.Set
    )


def same(a: ast.AST, b: ast.AST) -> bool:
    """Whether two statements are the same code."""
    return ast.dump(a) == ast.dump(b)


def without_docstrings(tree: ast.Module) -> ast.Module:
    """The module with the docstrings of it, its classes and functions taken out (in place)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                if isinstance(body[0].value.value, str):
                    node.body = body[1:] or [ast.Pass()]
    return tree


def comments(lines: list[str]) -> list[str]:
    """The comments of some lines, as written."""
    return [line.split("#", 1)[1].strip() for line in lines if "#" in line]


def first_parameter(node: ast.stmt) -> ast.arg | None:
    """A function's first positional parameter."""
    if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        return None
    positional = node.args.posonlyargs + node.args.args
    return positional[0] if positional else None


def gained_self(old: ast.stmt, new: ast.stmt) -> bool:
    """Whether an answer gave a module-level function a `self` it never had: the small model
    writes functions as methods, and a call of the function then lacks an argument."""
    theirs, ours = first_parameter(new), first_parameter(old)
    return (
        old.col_offset == 0
        and isinstance(old, ast.FunctionDef | ast.AsyncFunctionDef)
        and theirs is not None
        and theirs.arg == "self"
        and (ours is None or ours.arg != "self")
    )


def without_first_parameter(
    lines: list[str], node: ast.FunctionDef | ast.AsyncFunctionDef
) -> list[str]:
    """The function's lines without its first parameter (and the comma after it)."""
    parameter = first_parameter(node)
    assert parameter is not None and parameter.end_col_offset is not None
    row = parameter.lineno - 1 - first_line(node)
    line = lines[row]
    rest = line[parameter.end_col_offset :]
    cut = parameter.end_col_offset + (
        len(rest) - len(rest.lstrip(" ,")) if rest.lstrip().startswith(",") else 0
    )
    return [*lines[:row], line[: parameter.col_offset] + line[cut:], *lines[row + 1 :]]


def same_header(old: ast.ClassDef, new: ast.ClassDef) -> bool:
    """Whether two class statements have the same bases, keywords and decorators."""
    parts = ("bases", "keywords", "decorator_list")
    return all(
        [ast.dump(x) for x in getattr(old, part)] == [ast.dump(x) for x in getattr(new, part)]
        for part in parts
    )
