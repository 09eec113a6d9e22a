"""`starter.py budget KEY AMOUNT`: more tokens as before, or a higher cost cap in dollars."""

import pytest

from cli.commands import parse_budget
from cli.terminal import CommandError
from workflows.ticket.messages import BudgetInput


@pytest.mark.parametrize(
    ("amount", "grant"),
    [
        ("+50000", BudgetInput(tokens=50_000, author="al")),
        ("50000", BudgetInput(tokens=50_000, author="al")),
        ("+$5", BudgetInput(dollars=5, author="al")),
        ("+2.5usd", BudgetInput(dollars=2.5, author="al")),
    ],
)
def test_an_amount_raises_the_token_budget_or_the_cost_cap(amount: str, grant: BudgetInput) -> None:
    assert parse_budget(amount, "al") == grant


@pytest.mark.parametrize("amount", ["lots", "+0", "+$0", "-5usd"])
def test_an_unusable_amount_says_both_ways_to_write_one(amount: str) -> None:
    with pytest.raises(CommandError, match=r"write it like \+50000 \(tokens\) or \+5usd"):
        parse_budget(amount, "al")


def test_a_grant_names_one_limit() -> None:
    with pytest.raises(ValueError, match="either more tokens"):
        BudgetInput(tokens=5, dollars=5)
    with pytest.raises(ValueError, match="either more tokens"):
        BudgetInput()
