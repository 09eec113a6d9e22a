"""A new function the ticket spells with its parameters is a contract of the plan, as spelled.

A ticket asking for "one function `scale(points, factor)`" may get a plan with
`scale_points(points)`, or no contract at all, and tests calling `scale` with two arguments
fail either way. When no file of the repository defines the function, the plan's new function
sharing a word of its name takes the ticket's name and parameters; with none, the function
gets a contract in the module the ticket names or the one planned source file.
"""

import re
from collections.abc import Mapping

from graphs.planning.named import (
    CODE_SPAN,
    MIN_NAME_CHARS,
    RENAMED,
    called_in,
    contract_name,
    parameters,
    renamed_plan,
    spelled_in,
)
from graphs.planning.paths import is_test_path
from graphs.planning.state import ContractAnswer, PlanAnswer

RETURNS = re.compile(r"\)\s*(->\s*[^:]+?)\s*:?\s*$")
RESPELLED = "The ticket spells `{call}`, a new function: the plan's contract is `{signature}`."
BEHAVIOUR = "As the ticket states for `{name}`."


def with_spelled_functions(
    answer: PlanAnswer, asked: str, defined_in: Mapping[str, list[str]]
) -> tuple[PlanAnswer, list[str]]:
    """The plan with a contract for each new function the ticket spells with parameters, and a
    risk line for each contract renamed, respelled or added."""
    spelled = {
        name: params
        for name, params in spelled_in(asked).items()
        if len(name) >= MIN_NAME_CHARS and defined_in.get(name) == []
    }
    if not spelled:
        return answer, []
    named = set(called_in(asked))
    found = stand_ins(answer.contracts, spelled, named, defined_in)
    plan = renamed_plan(answer, found) if found else answer
    contracts = list(plan.contracts)
    notes = [RENAMED.format(new=new, named=name) for new, name in found.items()]
    for name, params in spelled.items():
        call = f"{name}({', '.join(params)})"
        index = next((i for i, c in enumerate(contracts) if contract_name(c) == name), None)
        if index is None:
            path = home(plan, asked, name)
            if path is None:
                continue
            signature = f"def {call}"
            contracts.append(
                ContractAnswer(
                    path=path, signature=signature, behaviour=BEHAVIOUR.format(name=name)
                )
            )
        elif parameters(contracts[index].signature) != params:
            returns = RETURNS.search(contracts[index].signature)
            signature = f"def {call}" + (f" {returns.group(1)}" if returns else "")
            contracts[index] = contracts[index].model_copy(update={"signature": signature})
        else:
            continue
        notes.append(RESPELLED.format(call=call, signature=signature))
    return plan.model_copy(update={"contracts": contracts}), notes


def stand_ins(
    contracts: list[ContractAnswer],
    spelled: Mapping[str, list[str]],
    named: set[str],
    defined_in: Mapping[str, list[str]],
) -> dict[str, str]:
    """The plan's new functions that stand for a spelled one: defined nowhere, not named by the
    ticket, sharing a word of the spelled name; one each, and only for a function no contract
    has."""
    names = [n for n in map(contract_name, contracts) if n]
    found: dict[str, str] = {}
    for name in spelled:
        if name in names:
            continue
        words = set(name.split("_")) - {""}
        for new in names:
            if new in named or new in found or defined_in.get(new):
                continue
            if words & set(new.split("_")):
                found[new] = name
                break
    return found


def home(plan: PlanAnswer, asked: str, name: str) -> str | None:
    """The planned source file a new function goes in: the module the ticket reaches it
    through (`travel.fares.band_price`), else the plan's only source file."""
    sources = [
        f.path
        for f in plan.files
        if f.path.endswith(".py") and not is_test_path(f.path) and f.action != "delete"
    ]
    for span in CODE_SPAN.findall(asked):
        match = re.search(rf"([A-Za-z_][\w.]*)\.{re.escape(name)}\(", span)
        if match:
            module = match.group(1).replace(".", "/")
            for path in sources:
                stem = path.removesuffix(".py")
                if stem == module or stem.endswith(f"/{module}"):
                    return path
    return sources[0] if len(sources) == 1 else None
