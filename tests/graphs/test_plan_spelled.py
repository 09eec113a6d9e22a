"""A new function the ticket spells with its parameters is a contract of the plan, as spelled."""

import subprocess
from pathlib import Path

from graphs.analysis import index_repository, make_context_query_tool, make_find_definition_tool
from graphs.models import ScriptedChatModel
from graphs.planning import create_plan
from graphs.planning.spelled import with_spelled_functions
from graphs.planning.state import ContractAnswer, PlanAnswer, PlannedFileAnswer
from graphs.schemas import Analysis, TicketContext

RATES = (
    "def letter_price(grams: int) -> float:\n"
    "    if grams <= 20:\n        return 0.85\n"
    '    raise ValueError(f"a letter weighs at most 20 g, got {grams} g")\n'
)
ASKED = (
    "Fold the copies into one lookup. One function `bracket_price(grams, brackets, kind)` finds"
    " the price; `letter_price` calls it."
)
NOWHERE = {"bracket_price": [], "letter_price": ["shipping/rates.py"]}


def plan(*contracts: ContractAnswer, files: tuple[str, ...] = ("shipping/rates.py",)) -> PlanAnswer:
    return PlanAnswer(
        summary="Use `bracket_lookup` in every service.",
        files=[PlannedFileAnswer(path=p, action="modify", purpose="Fold.") for p in files],
        test_plan=["Run the tests."],
        risks=[],
        contracts=list(contracts),
    )


def contract(signature: str, path: str = "shipping/rates.py") -> ContractAnswer:
    return ContractAnswer(path=path, signature=signature, behaviour="Finds the price.")


def test_a_new_function_sharing_a_word_takes_the_spelled_name_and_parameters() -> None:
    drafted = plan(contract("def bracket_lookup(grams: int, kind: str) -> float"))
    answer, notes = with_spelled_functions(drafted, ASKED, {**NOWHERE, "bracket_lookup": []})
    assert [c.signature for c in answer.contracts] == [
        "def bracket_price(grams, brackets, kind) -> float"
    ]
    assert answer.summary == "Use `bracket_price` in every service."
    assert notes == [
        "The plan's `bracket_lookup` is `bracket_price` itself: the ticket asks for a change to"
        " `bracket_price` (renamed in this plan).",
        "The ticket spells `bracket_price(grams, brackets, kind)`, a new function: the plan's"
        " contract is `def bracket_price(grams, brackets, kind) -> float`.",
    ]


def test_a_spelled_function_no_contract_stands_for_gets_one_in_the_planned_module() -> None:
    answer, notes = with_spelled_functions(plan(), ASKED, NOWHERE)
    assert [(c.path, c.signature) for c in answer.contracts] == [
        ("shipping/rates.py", "def bracket_price(grams, brackets, kind)")
    ]
    assert len(notes) == 1
    two_files = plan(files=("shipping/rates.py", "shipping/labels.py"))
    dotted = ASKED.replace("`bracket_price(", "`shipping.labels.bracket_price(")
    answer, _ = with_spelled_functions(two_files, dotted, NOWHERE)
    assert [c.path for c in answer.contracts] == ["shipping/labels.py"]
    assert with_spelled_functions(two_files, ASKED, NOWHERE) == (two_files, [])


def test_the_plan_stays_when_the_function_exists_is_unknown_or_is_contracted_as_spelled() -> None:
    exact = plan(contract("def bracket_price(grams: int, brackets: list, kind: str) -> float"))
    assert with_spelled_functions(exact, ASKED, NOWHERE) == (exact, [])
    drafted = plan(contract("def bracket_lookup(grams: int, kind: str) -> float"))
    defined = {"bracket_price": ["shipping/rates.py"], "bracket_lookup": []}
    assert with_spelled_functions(drafted, ASKED, defined) == (drafted, [])
    assert with_spelled_functions(drafted, ASKED, {}) == (drafted, [])  # nothing looked up
    named = plan(contract("def letter_price(grams: int, brackets: list) -> float"))
    answer, _ = with_spelled_functions(named, ASKED, NOWHERE)  # a named function stands for none
    assert [c.signature for c in answer.contracts][0].startswith("def letter_price(")


async def test_the_plan_of_a_repository_gets_the_spelled_contract(tmp_path: Path) -> None:
    (tmp_path / "shipping").mkdir()
    (tmp_path / "shipping/__init__.py").write_text('"""Postage."""\n')
    (tmp_path / "shipping/rates.py").write_text(RATES)
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    index = index_repository(tmp_path)
    tools = [make_context_query_tool(index), make_find_definition_tool(index)]
    drafted = plan(contract("def bracket_lookup(grams: int, kind: str) -> float"))
    ticket = TicketContext(key="SHIP-1", summary="One bracket lookup", description=ASKED)
    analysis = Analysis(
        summary="Postage.", languages=["Python"], frameworks=["pytest"],
        test_command="python -m pytest -q", files=["shipping/__init__.py", "shipping/rates.py"],
    )  # fmt: skip
    model = ScriptedChatModel([drafted.model_dump_json()])
    made = await create_plan(model, ticket, analysis, None, [], 1, tools=tools)
    assert [c.signature for c in made.contracts] == [
        "def bracket_price(grams, brackets, kind) -> float"
    ]
    assert "def bracket_price(grams, brackets, kind)" in made.markdown
    assert any(r.startswith("The ticket spells `bracket_price(") for r in made.risks)
