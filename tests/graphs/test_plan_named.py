"""A plan whose contracts add a function beside the one the ticket names is put back on it."""

import json

from graphs.models import ScriptedChatModel
from graphs.planning import create_plan
from graphs.planning.named import called_in, parameters, renames, spelled_in
from graphs.schemas import Analysis, Contract, TicketContext

CART = TicketContext(
    key="CART-1",
    summary="Cart total: apply a percentage discount",
    description="`shop.cart.Cart.total()` sums price times quantity. It should take a discount.",
    acceptance_criteria="- `total(discount=10)` on a cart worth 200.0 returns 180.0.\n"
    "- `total()` without a discount is unchanged.",
)
BESIDE_PLAN = {
    "summary": "Add `total_with_discount` and make total_with_discount round to cents.",
    "files": [
        {
            "path": "shop/cart.py",
            "action": "modify",
            "purpose": "Add a new function `total_with_discount`.",
        },
        {"path": "tests/test_cart.py", "action": "modify", "purpose": "Test total_with_discount."},
    ],
    "test_plan": ["Run pytest"],
    "risks": ["Cart.total_with_discount may round differently."],
    "contracts": [
        {
            "path": "shop/cart.py",
            "signature": "def total_with_discount(self, discount: float) -> float",
            "behaviour": "The `total_with_discount` function applies the discount to the sum.",
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
    plan = await create_plan(model, CART, analysis, None, [], 1)
    assert [c.signature for c in plan.contracts] == ["def total(self, discount: float) -> float"]
    assert plan.contracts[0].behaviour == "The `total` function applies the discount to the sum."
    assert plan.summary == "Add `total` and make total round to cents."
    assert [f.purpose for f in plan.files] == ["Add a new function `total`.", "Test total."]
    assert "Cart.total may round differently." in plan.risks
    told = "The plan's `total_with_discount` is `total` itself"
    assert told in plan.markdown and "total_with_discount(" not in plan.markdown


def test_only_a_new_name_built_on_a_named_function_is_renamed() -> None:
    ticket = '`parse_duration("7d")` returns 604800; `convert(0, "C", "K")` returns 273.15.'
    found = renames(
        ticket,
        [
            contract("parse_duration_with_days(text: str) -> int"),
            contract("Units.convert_kelvin(self, value)"),
            contract("def celsius_to_kelvin(value: float) -> float"),
            contract("def reconverted(value)"),
        ],
    )
    assert found == {"parse_duration_with_days": "parse_duration", "convert_kelvin": "convert"}


def test_a_plan_that_changes_a_named_function_is_left_alone() -> None:
    ticket = "`total(discount=10)` returns 180.0."
    both = [contract("def total(self, discount=0)"), contract("def total_with_tax(self)")]
    assert renames(ticket, both) == {}
    assert renames("Make it faster.", [contract("def total_with_tax(self)")]) == {}


def test_a_field_the_ticket_quotes_is_no_function_to_rename_to() -> None:
    ticket = (
        "A line `kitchen,21.5,40` parses into a Reading whose `humidity` is 40.0; "
        "`describe(reading)` shows it."
    )
    assert called_in(ticket) == ["describe"]
    assert renames(ticket, [contract("def parse_humidity(line: str) -> Reading")]) == {}
    assert renames(ticket, [contract("def describe_humidity(r)")]) == {
        "describe_humidity": "describe"
    }


def test_a_function_the_ticket_spells_with_its_parameters_names_the_contract_that_has_them() -> (
    None
):
    ticket = (
        "One function `bracket_price(grams, brackets, kind)` finds the price; `letter_price`"
        " calls it. Add `shipping.rates.count(items)`."
    )
    found = renames(
        ticket,
        [
            contract(
                "def bracket_lookup(grams: int, brackets: list[tuple[int, float]], kind: str)"
            ),
            contract("def letter_price(grams: int) -> float"),
            contract("def tally(items: list) -> int"),
        ],
    )
    assert found == {"bracket_lookup": "bracket_price"}
    assert renames(ticket, [contract("def count_items(items)")]) == {"count_items": "count"}
    assert renames(ticket, [contract("def bracket_price(grams, brackets, kind)")]) == {}
    assert renames(ticket, [contract("def bracket_lookup(grams, brackets)")]) == {}


def test_parameters_are_read_from_signatures_as_the_model_writes_them() -> None:
    assert parameters("def f(self, a: dict[str, int], *, b=1) -> None") == ["a", "b"]
    assert parameters("Cart.total(self, discount: float = 0)") == ["discount"]
    assert parameters("async def fetch(url)") == ["url"]
    assert parameters("class Reading") is None
    assert spelled_in("`a.b.paginate(items, page)` and `total(discount=10)`") == {
        "paginate": ["items", "page"]
    }
