"""Reading commands out of Jira comments."""

import pytest

from webhooks.commands import CommandError, budget_tokens, parse_comment
from workflows.ticket.messages import AnswerInput, ApprovalInput, BudgetInput, RejectionInput


@pytest.mark.parametrize(
    ("amount", "tokens"),
    [("+50000", 50_000), ("50000", 50_000), ("+50,000", 50_000), ("+50k", 50_000), ("2K", 2000)],
)
def test_budget_amounts(amount: str, tokens: int) -> None:
    assert budget_tokens(amount) == tokens


@pytest.mark.parametrize("amount", ["", "+0", "-500", "lots", "+5m", "1.5k"])
def test_unusable_budget_amounts_say_how_to_write_one(amount: str) -> None:
    with pytest.raises(CommandError, match=r"write it as `/budget \+50000`"):
        budget_tokens(amount)


def test_each_comment_kind() -> None:
    assert parse_comment("/approve", "bob", "d") == (
        "approve",
        ApprovalInput(author="bob", delivery_id="d"),
    )
    name, rejection = parse_comment("/Reject  too big\nsplit it", "bob", None) or ("", None)
    assert name == "reject" and isinstance(rejection, RejectionInput)
    assert rejection.reason == "too big\nsplit it"
    assert parse_comment(" /budget +10k", "al", None) == (
        "add_budget",
        BudgetInput(tokens=10_000, author="al"),
    )
    assert parse_comment("Use floats", "al", None) == (
        "answer",
        AnswerInput(text="Use floats", author="al"),
    )
    assert parse_comment("Done.\n\nticketsmith ref: q-1", "bot", None) is None


@pytest.mark.parametrize(("comment", "dollars"), [("/budget +$5", 5.0), ("/budget $2.50", 2.5)])
def test_a_budget_in_dollars_raises_the_cost_cap(comment: str, dollars: float) -> None:
    assert parse_comment(comment, "al", "d") == (
        "add_budget",
        BudgetInput(dollars=dollars, author="al", delivery_id="d"),
    )


def test_a_budget_of_no_dollars_says_how_to_raise_the_cost_cap() -> None:
    with pytest.raises(CommandError, match=r"or `/budget \+\$5` for the cost cap"):
        parse_comment("/budget +$0", "al", None)
