"""Whether a file keeps the plan's contracts: the functions and parameters the ticket names.

A model's QA review can tell a worker to drop a parameter the ticket asks a function to
take, and the worker then adds a new function beside it; a check of the file against the
contract says what is missing without a model call.
"""

import ast
import builtins
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


def is_guard(statement: ast.stmt, name: str) -> bool:
    """Whether a statement only checks the parameter: an assert, or an `if` on it (and
    built-ins) whose body only raises."""
    if isinstance(statement, ast.Assert):
        return True
    if not isinstance(statement, ast.If) or statement.orelse:
        return False
    read = {n.id for n in ast.walk(statement.test) if isinstance(n, ast.Name)}
    return all(isinstance(s, ast.Raise) for s in statement.body) and all(
        r == name or hasattr(builtins, r) for r in read
    )


def reads_beyond_checks(function: ast.FunctionDef | ast.AsyncFunctionDef, name: str) -> bool:
    """Whether the function reads the parameter anywhere but in checks of it."""
    pending: list[ast.AST] = [s for s in function.body if not is_guard(s, name)]
    while pending:
        node = pending.pop()
        if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Load):
            return True
        children = list(ast.iter_child_nodes(node))
        pending += [c for c in children if not (isinstance(c, ast.stmt) and is_guard(c, name))]
    return False


def unused(
    function: ast.FunctionDef | ast.AsyncFunctionDef,
    wanted: list[str],
    before: ast.FunctionDef | ast.AsyncFunctionDef | None,
) -> list[str]:
    """The wanted parameters the function takes but reads only to check them (unless the
    original function took them as unused already)."""
    had = [] if before is None else parameters(before.args)
    return [
        p
        for p in wanted
        if p in parameters(function.args)
        and not reads_beyond_checks(function, p)
        and not (before is not None and p in had and not reads_beyond_checks(before, p))
    ]


def is_module_function(contract: Contract) -> bool:
    """Whether a contract's signature is a module-level function (not `Class.method` nor one
    taking `self` or `cls`)."""
    match = _SIGNATURE.match(contract.signature.split("->", 1)[0])
    if match is None or "." in match.group(1):
        return False
    first = match.group(2).split(",", 1)[0].split(":", 1)[0].strip()
    return first not in _SELF


def lacking_functions(
    contracts: list[Contract], path: str, source: str, words: set[str]
) -> list[Contract]:
    """The contracts planned for the file whose module-level function, named by the ticket,
    the source does not define (none when the source does not parse)."""
    try:
        ast.parse(source)
    except (SyntaxError, ValueError):
        return []
    functions = defined_functions(source)
    return [
        contract
        for contract, name, _ in named_contracts(contracts, path, words)
        if is_module_function(contract) and name not in functions
    ]


def named_contracts(
    contracts: list[Contract], path: str, words: set[str]
) -> list[tuple[Contract, str, list[str]]]:
    """The contracts planned for the file whose function the ticket names, each with that
    name and the parameters its signature promises."""
    named = []
    for contract in (c for c in contracts if c.path == path):
        found = promised(contract)
        if found is not None and found[0] in words:
            named.append((contract, *found))
    return named


def contract_gaps(
    contracts: list[Contract], path: str, source: str, words: set[str], original: str = ""
) -> list[str]:
    """What the file lacks of the contracts planned for it, as far as the ticket spells it:
    a function it names that is missing, parameters it names that a function lacks, or
    reads only to check them (the `original` file's own unused parameters aside)."""
    functions = defined_functions(source)
    if not functions:
        return []
    originals = defined_functions(original)
    gaps = []
    for contract, name, wanted in named_contracts(contracts, path, words):
        function = functions.get(name)
        if function is None:
            gaps.append(f"`{name}` is not defined; the contract is `{contract.signature}`.")
            continue
        missing = [p for p in wanted if p in words and p not in parameters(function.args)]
        if missing:
            listed = ", ".join(f"`{p}`" for p in missing)
            gaps.append(f"`{name}` does not take {listed}; the contract is `{contract.signature}`.")
        ignored = unused(function, [p for p in wanted if p in words], originals.get(name))
        if ignored:
            listed = ", ".join(f"`{p}`" for p in ignored)
            them = "it" if len(ignored) == 1 else "them"
            said = f": {contract.behaviour.strip()}" if contract.behaviour.strip() else ""
            gaps.append(
                f"`{name}` takes {listed} but never uses {them} beyond checking: make what"
                f" `{name}` does depend on {them}, as the contract says:"
                f" `{contract.signature}`{said}"
            )
    return gaps


def ticket_words(ticket: TicketContext, requirements: Requirements | None) -> set[str]:
    """The words the ticket and the reporter's answers spell."""
    texts = [ticket.summary, ticket.description, ticket.acceptance_criteria or ""]
    texts += [] if requirements is None else requirements.answers
    return set(re.findall(r"\w+", "\n".join(texts)))
