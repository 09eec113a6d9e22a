"""New code planned in a package's `__init__.py` goes to the package's planned module."""

import json
import subprocess
from pathlib import Path

import pytest

from graphs.analysis import index_repository, make_context_query_tool, make_find_definition_tool
from graphs.models import ScriptedChatModel
from graphs.planning import create_plan
from graphs.planning.packages import asks_for_package, into_modules
from graphs.schemas import Analysis, Contract, PlannedFile, TicketContext

FILES = {
    "recipes/__init__.py": '"""Recipe helpers for the app."""\n',
    "recipes/servings.py": (
        "def scale(amounts: list, serves: int, wanted: int) -> list:\n"
        "    factor = serves / wanted\n"
        "    return [amount * factor for amount in amounts]\n"
    ),
    "tests/test_servings.py": "from recipes.servings import scale\n",
}
TICKET = TicketContext(
    key="RECIPE-1",
    summary="scale halves a recipe asked to serve twice as many, and has no portion count",
    description=(
        "`recipes.servings.scale(amounts, serves, wanted)` scales the amounts of a recipe."
        " Asked for twice the servings, it halves them. The app also needs the number of"
        " portions: add `portions(total, per_portion)`."
    ),
)
ANALYSIS = Analysis(
    summary="Recipe helpers.",
    languages=["Python"],
    frameworks=["pytest"],
    test_command="python -m pytest -q",
    files=sorted(FILES),
)


def planned(path: str, purpose: str = "Change it.") -> PlannedFile:
    return PlannedFile(path=path, action="modify", purpose=purpose)


def contract(path: str, name: str) -> Contract:
    return Contract(path=path, signature=f"def {name}(total: int) -> int", behaviour="x")


async def test_a_new_function_planned_in_the_package_init_goes_to_its_module(
    tmp_path: Path,
) -> None:
    for path, text in FILES.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text)
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    index = index_repository(tmp_path)
    tools = [make_context_query_tool(index), make_find_definition_tool(index)]
    answer = {
        "summary": "Turn the factor round and count the portions.",
        "files": [
            {"path": "recipes/servings.py", "action": "modify", "purpose": "Fix the factor."},
            {"path": "recipes/__init__.py", "action": "modify", "purpose": "Add `portions`."},
        ],
        "test_plan": ["portions(5, 2) is 3."],
        "risks": [],
        "contracts": [
            {
                "path": "recipes/servings.py",
                "signature": "def scale(amounts: list, serves: int, wanted: int) -> list",
                "behaviour": "The scaled amounts.",
            },
            {
                "path": "recipes/__init__.py",
                "signature": "def portions(total: int, per_portion: int) -> int",
                "behaviour": "The number of portions.",
            },
        ],
    }
    model = ScriptedChatModel([json.dumps(answer)])
    plan = await create_plan(model, TICKET, ANALYSIS, None, [], 1, tools=tools)
    assert [f.path for f in plan.files] == ["recipes/servings.py"]
    assert plan.files[0].purpose == "Fix the factor. Add `portions`."
    assert [c.path for c in plan.contracts] == ["recipes/servings.py", "recipes/servings.py"]
    note = next(r for r in plan.risks if r.startswith("Planned `recipes/__init__.py`"))
    assert "`recipes/servings.py`" in note and note in plan.markdown


def test_the_module_holding_contracts_takes_the_package_code() -> None:
    files = [
        planned("recipes/servings.py"),
        planned("recipes/units.py"),
        planned("recipes/__init__.py", "Add a `DEFAULT_SERVES` constant."),
    ]
    contracts = [contract("recipes/servings.py", "scale")]
    result, placed, notes = into_modules(files, contracts, {}, "Make the servings a parameter.")
    assert [f.path for f in result] == ["recipes/servings.py", "recipes/units.py"]
    assert result[0].purpose == "Change it. Add a `DEFAULT_SERVES` constant."
    assert placed == contracts and len(notes) == 1


@pytest.mark.parametrize(
    ("files", "contracts", "defined", "asked"),
    [
        (
            [planned("recipes/servings.py"), planned("recipes/__init__.py")],
            [contract("recipes/__init__.py", "portions")],
            {},
            "Export it: `from recipes import portions`.",
        ),
        (
            [planned("recipes/servings.py"), planned("recipes/__init__.py")],
            [contract("recipes/__init__.py", "portions")],
            {},
            "Call it as `recipes.portions(5, 2)`.",
        ),
        (
            [planned("recipes/servings.py"), planned("recipes/__init__.py")],
            [contract("recipes/__init__.py", "portions")],
            {},
            "Add it to recipes/__init__.py.",
        ),
        (
            [planned("recipes/servings.py"), planned("recipes/__init__.py")],
            [contract("recipes/__init__.py", "portions")],
            {"portions": ["recipes/__init__.py"]},
            "",
        ),
        ([planned("recipes/__init__.py")], [contract("recipes/__init__.py", "portions")], {}, ""),
        (
            [planned("recipes/a.py"), planned("recipes/b.py"), planned("recipes/__init__.py")],
            [],
            {},
            "",
        ),
        ([planned("__init__.py"), planned("servings.py")], [], {}, ""),
    ],
    ids=[
        "import from the package",
        "name through the package",
        "init named",
        "defined in the init",
        "no module planned",
        "no one module",
        "top level",
    ],
)
def test_the_package_init_stays_planned(
    files: list[PlannedFile], contracts: list[Contract], defined: dict[str, list[str]], asked: str
) -> None:
    assert into_modules(files, contracts, defined, asked) == (files, contracts, [])


def test_a_module_reached_through_the_package_is_not_the_package_asked_for() -> None:
    assert not asks_for_package("`recipes.servings.scale(amounts)`", "recipes", {"servings"})
    assert asks_for_package("`recipes.scale(amounts)`", "recipes", {"servings"})
    assert asks_for_package("from src.recipes import scale", "src/recipes", set())
