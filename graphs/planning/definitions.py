"""A function the plan changes is changed in the file that defines it.

A small model may plan the change to a function in a module beside the one that defines it;
the worker then copies the function there unchanged and what the ticket is about stays as it
was.
"""

from collections.abc import Mapping, Sequence
from pathlib import PurePosixPath

from langchain_core.tools import BaseTool

from graphs.planning.named import MIN_NAME_CHARS, contract_name
from graphs.planning.paths import is_test_path, names_file
from graphs.schemas import Contract, PlannedFile

PLACED = (
    "Planned `{name}` in `{planned}`, but the repository defines it in `{defined}`: the plan"
    " now changes it there."
)


async def look_up_definitions(tool: BaseTool | None, names: Sequence[str]) -> dict[str, list[str]]:
    """The source files (not tests) that define each name, by `find_definition`."""
    found: dict[str, list[str]] = {}
    if tool is None:
        return found
    for name in dict.fromkeys(n for n in names if len(n) >= MIN_NAME_CHARS):
        answer = str(await tool.ainvoke({"name": name}))
        paths = [line.strip() for line in answer.splitlines() if line.strip()]
        found[name] = [p for p in paths if " " not in p and not is_test_path(p)]
    return found


def place_contracts(
    files: list[PlannedFile],
    contracts: list[Contract],
    defined_in: Mapping[str, list[str]],
    asked: str,
) -> tuple[list[PlannedFile], list[Contract], list[str]]:
    """Files and contracts with each contract for an existing function moved to the one file
    that defines it, and a risk line for each move.

    A contract stays where it is when its file is planned as new, when the ticket names its
    file (its path or name; its stem only as code), or when the function is defined in no file
    or in several. A planned file left with no contract is replaced by the file its contracts
    went to.
    """
    planned = {f.path: f for f in files}
    placed: list[Contract] = []
    notes: list[str] = []
    moved: dict[str, str] = {}
    for contract in contracts:
        name = contract_name(contract)
        where = defined_in.get(name, [])
        action = planned[contract.path].action if contract.path in planned else "modify"
        if (
            len(where) != 1
            or where[0] == contract.path
            or action != "modify"
            or names_file(asked, PurePosixPath(contract.path))
        ):
            placed.append(contract)
            continue
        notes.append(PLACED.format(name=name, planned=contract.path, defined=where[0]))
        moved.setdefault(contract.path, where[0])
        placed.append(contract.model_copy(update={"path": where[0]}))
    staying = {c.path for c in placed}
    result: list[PlannedFile] = []
    for item in files:
        target = moved.get(item.path)
        if target is not None and item.path not in staying:
            item = item.model_copy(update={"path": target, "action": "modify"})
        result.append(item)
    for source, target in moved.items():
        if source in staying and target not in {f.path for f in result}:
            purpose = planned[source].purpose if source in planned else ""
            result.append(PlannedFile(path=target, action="modify", purpose=purpose))
    unique = {f.path: f for f in reversed(result)}
    return [f for f in result if unique.get(f.path) is f], placed, notes
