"""Whether a test passes its literal arguments where the called function's annotations
want that kind of value.

A test that passes a number where `f(amounts: list[float])` takes a list fails on the
original code with a TypeError, so it looks like a test failing as it should, and no right
change can make it pass.
"""

import ast

NUMBER, TEXT, COLLECTION = "number", "text", "collection"
COLLECTIONS = {
    "list", "tuple", "set", "frozenset", "dict", "List", "Tuple", "Set", "Dict", "Sequence",
    "Iterable", "Mapping", "Collection", "MutableSequence", "MutableMapping",
}  # fmt: skip
KINDS = {"int": NUMBER, "float": NUMBER, "complex": NUMBER, "str": TEXT}
# Kinds that a value of the first can never stand in for.
UNFIT = {
    (NUMBER, COLLECTION), (NUMBER, TEXT), (TEXT, NUMBER), (COLLECTION, NUMBER), (COLLECTION, TEXT),
}  # fmt: skip


def literal_kind(node: ast.expr) -> str | None:
    """The kind of value a literal argument is, or None for anything else."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        node = node.operand
    if isinstance(node, ast.Constant) and not isinstance(node.value, bool):
        if isinstance(node.value, int | float | complex):
            return NUMBER
        return TEXT if isinstance(node.value, str) else None
    collections = (ast.List, ast.Tuple, ast.Set, ast.Dict, ast.ListComp, ast.DictComp)
    return COLLECTION if isinstance(node, collections) else None


def annotation_kind(node: ast.expr | None) -> str | None:
    """The kind of value an annotation asks for, or None when it allows several or is unknown."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        sides = [s for s in (node.left, node.right) if not _is_none(s)]
        kinds = {annotation_kind(s) for s in sides}
        return kinds.pop() if len(kinds) == 1 else None
    if isinstance(node, ast.Subscript):
        node = node.value
    name = node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", None)
    if name in COLLECTIONS:
        return COLLECTION
    return KINDS.get(name) if isinstance(name, str) else None


def _is_none(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def unfit_arguments(call: ast.Call, function: ast.FunctionDef) -> list[str]:
    """The parameters of `function` the call passes a literal of a kind their annotation
    cannot take."""
    positional = [*function.args.posonlyargs, *function.args.args]
    by_name = {a.arg: a for a in [*positional, *function.args.kwonlyargs]}
    pairs = []
    for index, argument in enumerate(call.args):
        if isinstance(argument, ast.Starred) or index >= len(positional):
            break
        pairs.append((positional[index], argument))
    pairs += [(by_name[k.arg], k.value) for k in call.keywords if k.arg in by_name]
    return [
        parameter.arg
        for parameter, argument in pairs
        if (literal_kind(argument), annotation_kind(parameter.annotation)) in UNFIT
    ]


def arguments_fit(test: ast.FunctionDef, functions: dict[str, ast.FunctionDef]) -> bool:
    """Whether every call the test makes to one of `functions` (by the name it imported)
    passes literals its annotations can take."""
    return not any(
        unfit_arguments(node, functions[node.func.id])
        for node in ast.walk(test)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in functions
    )
