"""Whether an answer put the ticket's change beside the function the ticket names, not in it."""

import ast
import re

NAMED = re.compile(r"([A-Za-z_][\w.]*)\s*\(|`([A-Za-z_][\w.]*)`")
BESIDE = (
    "The ticket asks for a change to {named}, but your answer left {them} as {was} and added"
    " {added} beside {them}. Change {named} itself so that {it_does} what the acceptance"
    " criteria say; do not add a new function instead."
)

Functions = dict[str, ast.FunctionDef | ast.AsyncFunctionDef]
FUNCTION = (ast.FunctionDef, ast.AsyncFunctionDef)


def named_in(text: str) -> list[str]:
    """Names the text calls or quotes as code, each once, in order (`a.b.c(` gives `c`)."""
    names: list[str] = []
    for call, quoted in NAMED.findall(text):
        name = (call or quoted).rsplit(".", 1)[-1]
        if name and name not in names:
            names.append(name)
    return names


def functions(tree: ast.Module) -> Functions:
    """The module's functions and its classes' methods, by name (the first of a name wins)."""
    found: Functions = {}
    for node in tree.body:
        members = node.body if isinstance(node, ast.ClassDef) else [node]
        for member in members:
            if isinstance(member, FUNCTION):
                found.setdefault(member.name, member)
    return found


def bound_names(node: ast.stmt) -> list[str]:
    """The names a statement other than a function binds."""
    if isinstance(node, ast.Import | ast.ImportFrom):
        return [(alias.asname or alias.name).split(".")[0] for alias in node.names]
    if isinstance(node, ast.ClassDef):
        return [node.name]
    found = ast.walk(node)
    return [n.id for n in found if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)]


def bindings(tree: ast.Module) -> dict[str, str]:
    """What each name bound outside a function (module constants, imports, class attributes)
    is bound to; a class's methods are left out, they are compared as functions."""
    found: dict[str, str] = {}
    statements = list(tree.body)
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            statements.extend(node.body)
    for node in statements:
        if isinstance(node, FUNCTION):
            continue
        text = node.name if isinstance(node, ast.ClassDef) else ast.dump(node)
        for name in bound_names(node):
            found[name] = found.get(name, "") + text
    return found


def names_read(node: ast.AST) -> set[str]:
    """Every name a piece of code reads or calls, attributes included."""
    return {
        n.id if isinstance(n, ast.Name) else n.attr
        for n in ast.walk(node)
        if isinstance(n, ast.Name | ast.Attribute)
    }


def reached(named: list[str], defined: Functions) -> set[str]:
    """The named functions and every function of the module they call, directly or not."""
    seen: set[str] = set()
    todo = list(named)
    while todo:
        name = todo.pop()
        if name in seen or name not in defined:
            continue
        seen.add(name)
        todo.extend(names_read(defined[name]))
    return seen


def parsed(text: str) -> ast.Module | None:
    """The module's syntax tree, or None when it does not parse."""
    try:
        return ast.parse(text)
    except (SyntaxError, ValueError):
        return None


def added_beside(ticket_text: str, before: str, after: str) -> tuple[list[str], list[str]]:
    """The functions the ticket names that the answer left behaving as before while it added
    new ones, and those new ones; two empty lists when the answer changed what it was asked to."""
    old_tree, new_tree = parsed(before), parsed(after)
    if old_tree is None or new_tree is None:
        return [], []
    old, new = functions(old_tree), functions(new_tree)
    mentioned = named_in(ticket_text)
    named = [name for name in mentioned if name in old]
    added = [name for name in new if name not in old and name not in mentioned]
    if not named or not added:
        return [], []
    reach = reached(named, old)
    for name in reach:
        if name not in new or ast.dump(new[name]) != ast.dump(old[name]):
            return [], []
    old_bound, new_bound = bindings(old_tree), bindings(new_tree)
    read = set().union(*(names_read(old[name]) for name in reach))
    if any(old_bound.get(name) != new_bound.get(name) for name in read):
        return [], []  # a constant or import it reads changed
    return named, added


def beside_note(named: list[str], added: list[str]) -> str:
    """What a worker is told when it added functions beside the ones the ticket names."""
    one = len(named) == 1
    return BESIDE.format(
        named=", ".join(f"`{n}`" for n in named),
        added=", ".join(f"`{n}`" for n in added),
        them="it" if one else "them",
        was="it was" if one else "they were",
        it_does="it does" if one else "they do",
    )
