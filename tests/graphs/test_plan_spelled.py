"""A new function the ticket spells with its parameters is a contract of the plan, as spelled."""

import subprocess
from pathlib import Path

from graphs.analysis import index_repository, make_context_query_tool, make_find_definition_tool
from graphs.models import ScriptedChatModel
from graphs.planning import create_plan
from graphs.planning.spelled import with_spelled_functions
from graphs.planning.state import ContractAnswer, PlanAnswer, PlannedFileAnswer
from graphs.schemas import Analysis, TicketContext

ZONES = (
    "def walk_zone(bpm: int) -> int:\n"
    "    if bpm <= 120:\n        return 1\n"
    '    raise ValueError(f"a walk stays at 120 bpm at most, got {bpm} bpm")\n'
)
ASKED = (
    "Fold the copies into one lookup. One function `zone_limits(bpm, zones, sport)` finds"
    " the zone; `walk_zone` calls it."
)
NOWHERE = {"zone_limits": [], "walk_zone": ["fitness/zones.py"]}


def plan(*contracts: ContractAnswer, files: tuple[str, ...] = ("fitness/zones.py",)) -> PlanAnswer:
    return PlanAnswer(
        summary="Use `zone_lookup` in every sport.",
        files=[PlannedFileAnswer(path=p, action="modify", purpose="Fold.") for p in files],
        test_plan=["Run the tests."],
        risks=[],
        contracts=list(contracts),
    )


def contract(signature: str, path: str = "fitness/zones.py") -> ContractAnswer:
    return ContractAnswer(path=path, signature=signature, behaviour="Finds the zone.")


def test_a_new_function_sharing_a_word_takes_the_spelled_name_and_parameters() -> None:
    drafted = plan(contract("def zone_lookup(bpm: int, sport: str) -> int"))
    answer, notes = with_spelled_functions(drafted, ASKED, {**NOWHERE, "zone_lookup": []})
    assert [c.signature for c in answer.contracts] == ["def zone_limits(bpm, zones, sport) -> int"]
    assert answer.summary == "Use `zone_limits` in every sport."
    assert notes == [
        "The plan's `zone_lookup` is `zone_limits` itself: the ticket asks for a change to"
        " `zone_limits` (renamed in this plan).",
        "The ticket spells `zone_limits(bpm, zones, sport)`, a new function: the plan's"
        " contract is `def zone_limits(bpm, zones, sport) -> int`.",
    ]


def test_a_spelled_function_no_contract_stands_for_gets_one_in_the_planned_module() -> None:
    answer, notes = with_spelled_functions(plan(), ASKED, NOWHERE)
    assert [(c.path, c.signature) for c in answer.contracts] == [
        ("fitness/zones.py", "def zone_limits(bpm, zones, sport)")
    ]
    assert len(notes) == 1
    two_files = plan(files=("fitness/zones.py", "fitness/sports.py"))
    dotted = ASKED.replace("`zone_limits(", "`fitness.sports.zone_limits(")
    answer, _ = with_spelled_functions(two_files, dotted, NOWHERE)
    assert [c.path for c in answer.contracts] == ["fitness/sports.py"]
    assert with_spelled_functions(two_files, ASKED, NOWHERE) == (two_files, [])


def test_the_plan_stays_when_the_function_exists_is_unknown_or_is_contracted_as_spelled() -> None:
    exact = plan(contract("def zone_limits(bpm: int, zones: list, sport: str) -> int"))
    assert with_spelled_functions(exact, ASKED, NOWHERE) == (exact, [])
    drafted = plan(contract("def zone_lookup(bpm: int, sport: str) -> int"))
    defined = {"zone_limits": ["fitness/zones.py"], "zone_lookup": []}
    assert with_spelled_functions(drafted, ASKED, defined) == (drafted, [])
    assert with_spelled_functions(drafted, ASKED, {}) == (drafted, [])  # nothing looked up
    named = plan(contract("def walk_zone(bpm: int, zones: list) -> int"))
    answer, _ = with_spelled_functions(named, ASKED, NOWHERE)  # a named function stands for none
    assert [c.signature for c in answer.contracts][0].startswith("def walk_zone(")


async def test_the_plan_of_a_repository_gets_the_spelled_contract(tmp_path: Path) -> None:
    (tmp_path / "fitness").mkdir()
    (tmp_path / "fitness/__init__.py").write_text('"""Heart-rate zones."""\n')
    (tmp_path / "fitness/zones.py").write_text(ZONES)
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    index = index_repository(tmp_path)
    tools = [make_context_query_tool(index), make_find_definition_tool(index)]
    drafted = plan(contract("def zone_lookup(bpm: int, sport: str) -> int"))
    ticket = TicketContext(key="FIT-1", summary="One zone lookup", description=ASKED)
    analysis = Analysis(
        summary="Heart-rate zones.", languages=["Python"], frameworks=["pytest"],
        test_command="python -m pytest -q", files=["fitness/__init__.py", "fitness/zones.py"],
    )  # fmt: skip
    model = ScriptedChatModel([drafted.model_dump_json()])
    made = await create_plan(model, ticket, analysis, None, [], 1, tools=tools)
    assert [c.signature for c in made.contracts] == ["def zone_limits(bpm, zones, sport) -> int"]
    assert "def zone_limits(bpm, zones, sport)" in made.markdown
    assert any(r.startswith("The ticket spells `zone_limits(") for r in made.risks)
