"""Keeping the plan's change in the functions the ticket names, not in new ones beside them.

A small model may plan `area_with_unit` for a ticket whose criteria call `area(unit="cm")`;
the workers follow the plan and the tests of the named function fail. A contract whose new
name contains a named function's name is that function. Only a name the ticket calls in code
(`area(unit="cm")`) is a function: a field the ticket quotes is not. A ticket that spells a
function's parameters (`scale(points, factor)`) names it too: the plan's
`scale_points(points, factor)` is that function.
"""

import ast
import re
from collections.abc import Sequence

from graphs.planning.state import ContractAnswer, PlanAnswer
from graphs.schemas import Contract

CODE_SPAN = re.compile(r"`([^`\n]+)`")
CALL = re.compile(r"([A-Za-z_][\w.]*)\(")
SPELLED = re.compile(
    r"^(?:[A-Za-z_][\w.]*\.)?([A-Za-z_]\w*)\((\s*[A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*\s*)\)$"
)
SIGNATURE_NAME = re.compile(r"^\s*(?:async\s+)?(?:def\s+)?(?:\w+\.)*([A-Za-z_]\w*)\s*\(")
MIN_NAME_CHARS = 3
RENAMED = (
    "The plan's `{new}` is `{named}` itself: the ticket asks for a change to `{named}`"
    " (renamed in this plan)."
)


def contract_name(contract: Contract | ContractAnswer) -> str:
    """The function a contract's signature defines, or "" for another kind of contract."""
    match = SIGNATURE_NAME.match(contract.signature)
    return match.group(1) if match else ""


def called_in(text: str) -> list[str]:
    """Functions the text calls in its code spans, each once, in order (`a.b(` gives `b`)."""
    calls = (m.rsplit(".", 1)[-1] for span in CODE_SPAN.findall(text) for m in CALL.findall(span))
    return list(dict.fromkeys(c for c in calls if c))


def spelled_in(text: str) -> dict[str, list[str]]:
    """Functions the text spells with their parameters (`f(a, b)`, names only), each with its
    parameter names."""
    found: dict[str, list[str]] = {}
    for span in CODE_SPAN.findall(text):
        match = SPELLED.match(span.strip())
        if match:
            params = [p.strip() for p in match.group(2).split(",")]
            found.setdefault(match.group(1), params)
    return found


def parameters(signature: str) -> list[str] | None:
    """The parameter names of a contract's signature (without `self`), or None when it does
    not parse as one."""
    text = signature.strip().rstrip(":")
    text = re.sub(r"^(async\s+)?(def\s+)?", "def ", text, count=1)
    text = re.sub(r"^def\s+(?:\w+\.)+", "def ", text)
    try:
        tree = ast.parse(f"{text}:\n    pass")
    except SyntaxError:
        return None
    node = tree.body[0] if len(tree.body) == 1 else None
    if not isinstance(node, ast.FunctionDef):
        return None
    args = node.args
    names = [a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]]
    return names[1:] if names[:1] in (["self"], ["cls"]) else names


def by_parameters(
    ticket_text: str, contracts: Sequence[Contract | ContractAnswer]
) -> dict[str, str]:
    """New contract names to the function the ticket spells with the same parameters, when no
    contract has that name: two or more parameters, or one and a word of the name shared."""
    spelled = spelled_in(ticket_text)
    names = {contract_name(c): c for c in contracts if contract_name(c)}
    found: dict[str, str] = {}
    for name, params in spelled.items():
        if name in names or len(name) < MIN_NAME_CHARS:
            continue
        for new, contract in names.items():
            if new in spelled or new in found or parameters(contract.signature) != params:
                continue
            if len(params) >= 2 or set(new.split("_")) & set(name.split("_")) - {""}:
                found[new] = name
                break
    return found


def renames(ticket_text: str, contracts: Sequence[Contract | ContractAnswer]) -> dict[str, str]:
    """New contract names to the named function each stands for; only those spelled with
    their parameters when some contract already changes a function the ticket names."""
    found = by_parameters(ticket_text, contracts)
    named = [n for n in called_in(ticket_text) if len(n) >= MIN_NAME_CHARS]
    names = [n for n in map(contract_name, contracts) if n]
    if any(n in named for n in names):
        return found
    for name in names:
        if name in found:
            continue
        within = [n for n in named if re.search(rf"(^|_){re.escape(n)}(_|$)", name)]
        if within:
            found[name] = max(within, key=len)
    return found


def renamed_text(text: str, found: dict[str, str]) -> str:
    """The text with each whole new name replaced by the named function's."""
    for new, named in found.items():
        text = re.sub(rf"(?<!\w){re.escape(new)}\b", named, text)
    return text


def on_named_functions(answer: PlanAnswer, ticket_text: str) -> tuple[PlanAnswer, list[str]]:
    """The plan with contracts beside the ticket's functions renamed to them, and a line for
    each rename (for the plan's risks, so the approver sees it)."""
    found = renames(ticket_text, answer.contracts)
    if not found:
        return answer, []
    plan = renamed_plan(answer, found)
    return plan, [RENAMED.format(new=new, named=named) for new, named in found.items()]


def renamed_plan(answer: PlanAnswer, found: dict[str, str]) -> PlanAnswer:
    """The plan with each whole new name replaced by the named function's, everywhere."""

    def fix(text: str) -> str:
        return renamed_text(text, found)

    return answer.model_copy(
        update={
            "summary": fix(answer.summary),
            "files": [f.model_copy(update={"purpose": fix(f.purpose)}) for f in answer.files],
            "contracts": [
                c.model_copy(update={"signature": fix(c.signature), "behaviour": fix(c.behaviour)})
                for c in answer.contracts
            ],
            "test_plan": [fix(t) for t in answer.test_plan],
            "risks": [fix(r) for r in answer.risks],
        }
    )
