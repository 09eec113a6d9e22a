"""A function the plan changes is changed in the file that defines it.

A small model may plan the change to a function in a module beside the one that defines it;
the worker then copies the function there unchanged and what the ticket is about stays as it
was. Or its plan says "`parse` and `render` are updated" but plans only a third module, and
nothing changes where they are defined.
"""

import re
from collections.abc import Mapping, Sequence
from pathlib import PurePosixPath

from langchain_core.tools import BaseTool

from graphs.planning.named import CODE_SPAN, MIN_NAME_CHARS, contract_name
from graphs.planning.paths import is_test_path, names_file
from graphs.schemas import Contract, PlannedFile

JOINED = "Added `{path}`: the plan changes {names}, defined there."
MAX_JOINED = 3
IDENTIFIER = re.compile(r"^([A-Za-z_]\w*)(?:\(\))?$")
SENTENCE_END = re.compile(r"(?<=[.;!?])\s+")
# A sentence that says a function changes; one that keeps it as it is, or only uses it, does not.
CHANGING = re.compile(
    r"\b(updat|chang|modif|fix|extend|rewrit|replac|adjust|handl|accept|support|add)\w*",
    re.IGNORECASE,
)
KEEPING = re.compile(
    r"\b(unchanged|untouched|as it is|as is|no change|not change|keeps?|kept|already)\b",
    re.IGNORECASE,
)
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


def changed_names(texts: Sequence[str]) -> list[str]:
    """Names in code spans (`parse_line`, `describe()`) of sentences that say they change."""
    names: list[str] = []
    for text in texts:
        for sentence in SENTENCE_END.split(text):
            if not CHANGING.search(sentence) or KEEPING.search(sentence):
                continue
            for span in CODE_SPAN.findall(sentence):
                match = IDENTIFIER.match(span.strip())
                if match and len(match.group(1)) >= MIN_NAME_CHARS:
                    names.append(match.group(1))
    return list(dict.fromkeys(names))


def join_defining_files(
    files: list[PlannedFile], names: Sequence[str], defined_in: Mapping[str, list[str]]
) -> tuple[list[PlannedFile], list[str]]:
    """The planned files with, for each changed name defined in one source file the plan
    left out, that file (at most `MAX_JOINED`), and a risk line for each file added."""
    planned = {f.path for f in files}
    joined: dict[str, list[str]] = {}
    for name in names:
        where = defined_in.get(name, [])
        if len(where) != 1 or where[0] in planned:
            continue
        if where[0] in joined or len(joined) < MAX_JOINED:
            joined.setdefault(where[0], []).append(name)
    spans = {path: ", ".join(f"`{n}`" for n in found) for path, found in joined.items()}
    added = [
        PlannedFile(path=path, action="modify", purpose=f"Change {names} as the plan says.")
        for path, names in spans.items()
    ]
    return files + added, [JOINED.format(path=path, names=names) for path, names in spans.items()]
