"""Names an answer reads in a function that nothing defines: a typo, or a variable of
another scope (`line` outside the loop that bound it). Python finds them only when the line
runs; the symbol table finds them before any test does."""

import ast
import builtins
import symtable
from dataclasses import dataclass

# Names every module has besides the builtins.
MODULE_NAMES = frozenset(
    {"__file__", "__path__", "__builtins__", "__cached__", "__annotations__", "__dict__"}
)
PROVIDED = frozenset(dir(builtins)) | MODULE_NAMES
ANONYMOUS = ("listcomp", "setcomp", "dictcomp", "genexpr", "<")


@dataclass(frozen=True)
class UndefinedName:
    """A name read where nothing binds it: in which function, first on which line."""

    name: str
    scope: str
    line: int

    def describe(self) -> str:
        """The name, where it is read, for a worker's note."""
        return f"`{self.name}` (line {self.line}, in `{self.scope}`)"


def undefined_names(source: str) -> list[UndefinedName]:
    """The names the functions and classes of a module read that the module never binds
    and Python does not provide; none when the source does not parse, or binds names in
    ways a symbol table cannot see (`import *`, `globals()`)."""
    try:
        tree = ast.parse(source)
        table = symtable.symtable(source, "<answer>", "exec")
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return []
    if "globals()" in source or any(
        isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names)
        for node in ast.walk(tree)
    ):
        return []
    scopes = nested(table, "<module>")
    bound = {s.get_name() for s in table.get_symbols() if binds(s)}
    bound |= {s.get_name() for t, _ in scopes for s in t.get_symbols() if s.is_declared_global()}
    read = read_lines(tree)
    found: dict[str, UndefinedName] = {}
    for child, scope in scopes:
        for symbol in child.get_symbols():
            name = symbol.get_name()
            unbound = name not in bound and name not in PROVIDED and name not in found
            if unbound and name in read and reads_global(symbol):
                later = [line for line in read[name] if line >= child.get_lineno()]
                found[name] = UndefinedName(name=name, scope=scope, line=min(later or read[name]))
    return sorted(found.values(), key=lambda u: u.line)


def binds(symbol: symtable.Symbol) -> bool:
    """Whether the module binds the name: assigned, imported, or a def or class."""
    return symbol.is_assigned() or symbol.is_imported() or symbol.is_namespace()


def reads_global(symbol: symtable.Symbol) -> bool:
    """Whether a function's symbol is a global it reads and does not bind itself (checked
    both ways: `symtable` takes a function named `top` for the module)."""
    binds_here = symbol.is_parameter() or symbol.is_assigned() or symbol.is_imported()
    return symbol.is_referenced() and symbol.is_global() and not binds_here


def nested(table: symtable.SymbolTable, outer: str) -> list[tuple[symtable.SymbolTable, str]]:
    """Every table below this one with the name of its function or class (a comprehension's
    or a lambda's is the one it is written in)."""
    found: list[tuple[symtable.SymbolTable, str]] = []
    for child in table.get_children():
        name = child.get_name()
        scope = outer if name.startswith(ANONYMOUS) or name == "lambda" else name
        found += [(child, scope), *nested(child, scope)]
    return found


def read_lines(tree: ast.Module) -> dict[str, list[int]]:
    """The lines each name is read on, outside annotations (a local variable's annotation is
    never evaluated)."""
    annotations = [
        node.annotation
        for node in ast.walk(tree)
        if isinstance(node, ast.AnnAssign | ast.arg) and node.annotation is not None
    ]
    annotations += [
        node.returns
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.returns is not None
    ]
    skipped = {id(n) for a in annotations for n in ast.walk(a)}
    lines: dict[str, list[int]] = {}
    names = [n for n in ast.walk(tree) if isinstance(n, ast.Name) and id(n) not in skipped]
    for node in names:
        if isinstance(node.ctx, ast.Load):
            lines.setdefault(node.id, []).append(node.lineno)
    return lines


def new_undefined_names(before: str, after: str) -> list[UndefinedName]:
    """The undefined names of `after` that `before` did not have already: a repository's own
    dynamic names are not the answer's mistake."""
    known = {u.name for u in undefined_names(before)}
    return [u for u in undefined_names(after) if u.name not in known]
