"""New code goes into a package's modules, not its `__init__.py`, unless the ticket asks.

A small model may plan a new function in `pkg/__init__.py` beside the module whose functions
it belongs with, or a constant there for the functions of `pkg/module.py` that use it; each
worker then imports the name from the other file, which never defines it.
"""

import re
from collections.abc import Mapping
from pathlib import PurePosixPath

from graphs.planning.named import contract_name
from graphs.planning.paths import is_test_path
from graphs.schemas import Contract, PlannedFile

INIT = "__init__.py"
FOLDED = (
    "Planned `{init}` for new code; the plan now puts it in `{module}`, beside the code it"
    " goes with (the ticket does not ask for the package itself to change)."
)


def asks_for_package(text: str, package: str, modules: set[str]) -> bool:
    """Whether the text asks for the package itself: its `__init__.py`, an import from it, or a
    name reached through it that is none of its modules (`recipes.portions`)."""
    dotted = package.replace("/", ".")
    if INIT in text or re.search(rf"\bfrom\s+{re.escape(dotted)}\s+import\b", text):
        return True
    reached = re.findall(rf"(?<![\w.]){re.escape(dotted)}\.(\w+)", text)
    return any(name not in modules for name in reached)


def into_modules(
    files: list[PlannedFile],
    contracts: list[Contract],
    defined_in: Mapping[str, list[str]],
    asked: str,
) -> tuple[list[PlannedFile], list[Contract], list[str]]:
    """Files and contracts with a planned package `__init__.py` folded into the package's
    planned module, and a risk line for each fold.

    The module is the one planned source file of the same package that holds contracts, or
    the only one planned. A contract for a function the `__init__.py` already defines stays;
    so does the file, then.
    """
    result = list(files)
    placed = list(contracts)
    notes: list[str] = []
    for init in [f for f in files if PurePosixPath(f.path).name == INIT]:
        package = str(PurePosixPath(init.path).parent)
        if package == "." or is_test_path(init.path):
            continue
        siblings = [
            f
            for f in result
            if str(PurePosixPath(f.path).parent) == package
            and f.path != init.path
            and f.path.endswith(".py")
            and f.action != "delete"
        ]
        modules = {PurePosixPath(f.path).stem for f in siblings}
        if not siblings or asks_for_package(asked, package, modules):
            continue
        module = _home(siblings, placed)
        if module is None:
            continue
        mine = [c for c in placed if c.path == init.path]
        if any(init.path in defined_in.get(contract_name(c), []) for c in mine):
            continue
        placed = [c.model_copy(update={"path": module.path}) if c in mine else c for c in placed]
        purpose = f"{module.purpose.rstrip('. ')}. {init.purpose}".strip(". ") + "."
        result = [
            f.model_copy(update={"purpose": purpose}) if f.path == module.path else f
            for f in result
            if f.path != init.path
        ]
        notes.append(FOLDED.format(init=init.path, module=module.path))
    return result, placed, notes


def _home(siblings: list[PlannedFile], contracts: list[Contract]) -> PlannedFile | None:
    """The sibling module the package's new code goes to: the one holding contracts, else the
    only one."""
    holding = [f for f in siblings if any(c.path == f.path for c in contracts)]
    if len(holding) == 1:
        return holding[0]
    return siblings[0] if len(siblings) == 1 else None
