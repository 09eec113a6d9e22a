"""What acceptance tests can call, as a list of names and signatures rather than source.

Shown the planned modules as fenced files, the small model wrote them out again, changed,
instead of the test module it was asked for, to its token bound; shown what it may import
and call, it has nothing to copy and less to read.
"""

import ast
from pathlib import Path

from graphs.analysis.index import CodeIndex
from graphs.implementation.criteria.modules import module_of
from graphs.implementation.revision import read_current

VALUE_CHARS = 60
DOC_CHARS = 120
MAX_TYPES = 3


def doc_line(node: ast.AST) -> str:
    """The first line of a definition's docstring, trimmed."""
    doc = ast.get_docstring(node) if isinstance(node, ast.FunctionDef | ast.ClassDef) else None
    line = (doc or "").strip().splitlines()[0] if doc and doc.strip() else ""
    return line[:DOC_CHARS]


def parameters(function: ast.FunctionDef | ast.AsyncFunctionDef, method: bool = False) -> str:
    """A function's parameters as written, without `self` or `cls` for a method."""
    arguments = function.args
    if method and (arguments.posonlyargs or arguments.args):
        arguments = ast.arguments(
            posonlyargs=arguments.posonlyargs[1:],
            args=arguments.args[1:] if not arguments.posonlyargs else arguments.args,
            vararg=arguments.vararg,
            kwonlyargs=arguments.kwonlyargs,
            kw_defaults=arguments.kw_defaults,
            kwarg=arguments.kwarg,
            defaults=arguments.defaults,
        )
    return ast.unparse(arguments)


def signature(function: ast.FunctionDef | ast.AsyncFunctionDef, name: str, method: bool) -> str:
    """`name(parameters) -> returns`."""
    returns = f" -> {ast.unparse(function.returns)}" if function.returns else ""
    return f"{name}({parameters(function, method)}){returns}"


def is_dataclass(node: ast.ClassDef) -> bool:
    """Whether the class is decorated as a dataclass (with or without arguments)."""
    names = (ast.unparse(d.func if isinstance(d, ast.Call) else d) for d in node.decorator_list)
    return any(n.rsplit(".", 1)[-1] == "dataclass" for n in names)


def constructor(node: ast.ClassDef) -> str:
    """How the class is built: its `__init__`'s parameters, or a dataclass's fields."""
    init = next(
        (n for n in node.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"), None
    )
    if init is not None:
        return signature(init, node.name, method=True).split(" -> ")[0]
    if is_dataclass(node):
        fields = [
            f"{ast.unparse(s.target)}: {ast.unparse(s.annotation)}"
            + (f" = {ast.unparse(s.value)}" if s.value is not None else "")
            for s in node.body
            if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)
        ]
        return f"{node.name}({', '.join(fields)})"
    return f"{node.name}(...)"


def item(text: str, doc: str, indent: str = "") -> str:
    """One line of the outline: the code in a span, then what it does."""
    return f"{indent}- `{text}`" + (f": {doc}" if doc else "")


def class_lines(node: ast.ClassDef) -> list[str]:
    """A class's constructor and its public methods."""
    lines = [item(constructor(node), doc_line(node))]
    for member in node.body:
        if isinstance(
            member, ast.FunctionDef | ast.AsyncFunctionDef
        ) and not member.name.startswith("_"):
            shown = signature(member, f"{node.name}(...).{member.name}", method=True)
            lines.append(item(shown, doc_line(member), "  "))
    return lines


def module_lines(tree: ast.Module, only: set[str] | None = None) -> list[str]:
    """The public constants, functions and classes of a module (only those named, if given)."""
    lines: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.Assign) and only is None:
            names = [
                t.id
                for t in node.targets
                if isinstance(t, ast.Name) and t.id.isupper() and not t.id.startswith("_")
            ]
            if names:
                lines.append(item(f"{names[0]} = {ast.unparse(node.value)[:VALUE_CHARS]}", ""))
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            if not node.name.startswith("_") and (only is None or node.name in only):
                lines.append(item(signature(node, node.name, method=False), doc_line(node)))
        elif isinstance(node, ast.ClassDef):
            if not node.name.startswith("_") and (only is None or node.name in only):
                lines += class_lines(node)
    return lines


def parsed(repo_dir: Path, path: str) -> ast.Module | None:
    """A Python file's tree as it is now, or None."""
    try:
        return ast.parse(read_current(repo_dir / path) or "")
    except (SyntaxError, ValueError):
        return None


def annotation_names(tree: ast.Module) -> set[str]:
    """The names the module's public signatures and fields are annotated with."""
    found: set[str] = set()
    for node in ast.walk(tree):
        annotations = []
        if isinstance(node, ast.arg) and node.annotation is not None:
            annotations.append(node.annotation)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.returns:
            annotations.append(node.returns)
        elif isinstance(node, ast.AnnAssign):
            annotations.append(node.annotation)
        for annotation in annotations:
            found |= {n.id for n in ast.walk(annotation) if isinstance(n, ast.Name)}
    return found


def section(path: str, module: str | None, lines: list[str]) -> str:
    """A module's heading and its lines."""
    where = f" (import from `{module}`)" if module else ""
    return f"`{path}`{where}:\n" + "\n".join(lines)


def api_outline(repo_dir: Path, paths: list[str], index: CodeIndex | None) -> list[str]:
    """For each Python file, what a test imports from it and calls; then the classes their
    signatures take that other modules define (`Tank` for `fish_capacity(tank: Tank)`)."""
    sections: list[str] = []
    defined: set[str] = set()
    wanted: set[str] = set()
    for path in paths:
        tree = parsed(repo_dir, path)
        lines = module_lines(tree) if tree is not None else []
        if tree is None or not lines:
            continue
        sections.append(section(path, module_of(path), lines))
        defined |= {n.name for n in tree.body if isinstance(n, ast.FunctionDef | ast.ClassDef)}
        wanted |= annotation_names(tree)
    types = sorted(n for n in wanted - defined if n[:1].isupper() and index is not None)
    for name in types[:MAX_TYPES]:
        where = index.defining(name) if index is not None else []
        tree = parsed(repo_dir, where[0]) if len(where) == 1 and where[0] not in paths else None
        lines = module_lines(tree, only={name}) if tree is not None else []
        if lines:
            sections.append(section(where[0], module_of(where[0]), lines))
    return sections
