"""Whether a file keeps the plan's contracts: the functions and parameters the ticket names.

The small model's QA review once told a worker to remove the `discount` parameter the ticket
asks `total` to take, and the worker added `total_with_discount` instead; a check of the file
against the contract says what is missing without a model call.
"""

import ast
import re

from graphs.schemas import Contract, Requirements, TicketContext

_SIGNATURE = re.compile(r"^\s*(?:async\s+)?(?:def\s+)?([A-Za-z_][\w.]*)\s*\((.*)\)")
_SELF = {"self", "cls"}


def parameters(arguments: ast.arguments) -> list[str]:
    """The parameter names of a function, without `self` or `cls`."""
    every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
    return [a.arg for a in every if a.arg not in _SELF]


def promised(contract: Contract) -> tuple[str, list[str]] | None:
    """The function name and parameter names a contract's signature promises, if it is one."""
    match = _SIGNATURE.match(contract.signature.split("->", 1)[0])
    if match is None:
        return None
    name, inside = match.group(1).rsplit(".", 1)[-1], match.group(2)
    try:
        tree = ast.parse(f"def {name}({inside}):\n    pass\n")
    except SyntaxError:
        return None
    function = tree.body[0]
    assert isinstance(function, ast.FunctionDef)
    return name, parameters(function.args)


def defined_functions(source: str) -> dict[str, ast.FunctionDef | ast.AsyncFunctionDef]:
    """Every function and method a module defines, by name (the first of a name wins)."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return {}
    found: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            found.setdefault(node.name, node)
    return found


def contract_gaps(contracts: list[Contract], path: str, source: str, words: set[str]) -> list[str]:
    """What the file lacks of the contracts planned for it, as far as the ticket spells it:
    a function it names that is missing, or parameters it names that a function lacks."""
    functions = defined_functions(source)
    if not functions:
        return []
    gaps = []
    for contract in (c for c in contracts if c.path == path):
        found = promised(contract)
        if found is None or found[0] not in words:
            continue
        name, wanted = found
        function = functions.get(name)
        if function is None:
            gaps.append(f"`{name}` is not defined; the contract is `{contract.signature}`.")
            continue
        missing = [p for p in wanted if p in words and p not in parameters(function.args)]
        if missing:
            listed = ", ".join(f"`{p}`" for p in missing)
            gaps.append(f"`{name}` does not take {listed}; the contract is `{contract.signature}`.")
    return gaps


def ticket_words(ticket: TicketContext, requirements: Requirements | None) -> set[str]:
    """The words the ticket and the reporter's answers spell."""
    texts = [ticket.summary, ticket.description, ticket.acceptance_criteria or ""]
    texts += [] if requirements is None else requirements.answers
    return set(re.findall(r"\w+", "\n".join(texts)))
