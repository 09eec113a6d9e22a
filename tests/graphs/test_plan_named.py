"""A plan whose contracts add a function beside the one the ticket names is put back on it."""

import json

from graphs.models import ScriptedChatModel
from graphs.planning import create_plan
from graphs.planning.named import called_in, parameters, renames, spelled_in
from graphs.schemas import Analysis, Contract, TicketContext

ROUTE = TicketContext(
    key="HIKE-1",
    summary="Route hours: allow for the climb",
    description="`trails.route.Route.hours()` adds up the legs' walking times. It should take"
    " the climb.",
    acceptance_criteria="- `hours(climb=600)` on a route of 3.0 hours returns 4.0.\n"
    "- `hours()` without a climb is unchanged.",
)
BESIDE_PLAN = {
    "summary": "Add `hours_with_climb` and make hours_with_climb round to minutes.",
    "files": [
        {
            "path": "trails/route.py",
            "action": "modify",
            "purpose": "Add a new function `hours_with_climb`.",
        },
        {"path": "tests/test_route.py", "action": "modify", "purpose": "Test hours_with_climb."},
    ],
    "test_plan": ["Run pytest"],
    "risks": ["Route.hours_with_climb may round differently."],
    "contracts": [
        {
            "path": "trails/route.py",
            "signature": "def hours_with_climb(self, climb: float) -> float",
            "behaviour": "The `hours_with_climb` function adds the climb to the walking time.",
        }
    ],
}


def contract(signature: str) -> Contract:
    """A contract of one signature."""
    return Contract(path="m.py", signature=signature, behaviour="")


async def test_a_contract_beside_the_named_function_becomes_that_function(
    analysis: Analysis,
) -> None:
    model = ScriptedChatModel([json.dumps(BESIDE_PLAN)])
    plan = await create_plan(model, ROUTE, analysis, None, [], 1)
    assert [c.signature for c in plan.contracts] == ["def hours(self, climb: float) -> float"]
    assert plan.contracts[0].behaviour == "The `hours` function adds the climb to the walking time."
    assert plan.summary == "Add `hours` and make hours round to minutes."
    assert [f.purpose for f in plan.files] == ["Add a new function `hours`.", "Test hours."]
    assert "Route.hours may round differently." in plan.risks
    told = "The plan's `hours_with_climb` is `hours` itself"
    assert told in plan.markdown and "hours_with_climb(" not in plan.markdown


def test_only_a_new_name_built_on_a_named_function_is_renamed() -> None:
    ticket = '`parse_volume("7l")` returns 7000; `blend("red", "blue")` returns "purple".'
    found = renames(
        ticket,
        [
            contract("parse_volume_with_litres(text: str) -> int"),
            contract("Palette.blend_purple(self, value)"),
            contract("def red_to_purple(value: str) -> str"),
            contract("def reblended(value)"),
        ],
    )
    assert found == {"parse_volume_with_litres": "parse_volume", "blend_purple": "blend"}


def test_a_plan_that_changes_a_named_function_is_left_alone() -> None:
    ticket = "`hours(climb=600)` returns 4.0."
    both = [contract("def hours(self, climb=0)"), contract("def hours_with_rests(self)")]
    assert renames(ticket, both) == {}
    assert renames("Make it faster.", [contract("def hours_with_rests(self)")]) == {}


def test_a_field_the_ticket_quotes_is_no_function_to_rename_to() -> None:
    ticket = (
        "A row `oak,12,3.5` parses into a Tree whose `girth` is 3.5; `describe(tree)` shows it."
    )
    assert called_in(ticket) == ["describe"]
    assert renames(ticket, [contract("def parse_girth(row: str) -> Tree")]) == {}
    assert renames(ticket, [contract("def describe_girth(t)")]) == {"describe_girth": "describe"}


def test_a_function_the_ticket_spells_with_its_parameters_names_the_contract_that_has_them() -> (
    None
):
    ticket = (
        "One function `fare_band(km, bands, kind)` finds the fare; `bus_fare`"
        " calls it. Add `transit.fares.count(items)`."
    )
    found = renames(
        ticket,
        [
            contract("def fare_lookup(km: int, bands: list[tuple[int, float]], kind: str)"),
            contract("def bus_fare(km: int) -> float"),
            contract("def tally(items: list) -> int"),
        ],
    )
    assert found == {"fare_lookup": "fare_band"}
    assert renames(ticket, [contract("def count_items(items)")]) == {"count_items": "count"}
    assert renames(ticket, [contract("def fare_band(km, bands, kind)")]) == {}
    assert renames(ticket, [contract("def fare_lookup(km, bands)")]) == {}


def test_parameters_are_read_from_signatures_as_the_model_writes_them() -> None:
    assert parameters("def f(self, a: dict[str, int], *, b=1) -> None") == ["a", "b"]
    assert parameters("Route.hours(self, climb: float = 0)") == ["climb"]
    assert parameters("async def fetch(url)") == ["url"]
    assert parameters("class Tree") is None
    assert spelled_in("`a.b.plant(trees, row)` and `hours(climb=600)`") == {
        "plant": ["trees", "row"]
    }
