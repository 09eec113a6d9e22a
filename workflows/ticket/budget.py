"""A ticket's limits on model use: its token budget and its cost cap, and raising them."""

from enum import StrEnum

from llm.cost import ModelCost, money
from workflows.ticket.messages import BudgetInput, TicketStatus

# The cost cap pauses a ticket; histories from before it never did.
COST_CAP = "cost-cap"


class Limit(StrEnum):
    """Which limit a ticket reached."""

    TOKENS = "token budget"
    COST = "cost cap"


def spend(status: TicketStatus, tokens: int, cost: ModelCost) -> None:
    """Count a result's model tokens and what they cost."""
    status.tokens += tokens
    status.cost = status.cost.plus(cost)


def limit_reached(status: TicketStatus) -> Limit | None:
    """The limit the ticket has used up, if any (the token budget first)."""
    if status.token_budget is not None and status.tokens >= status.token_budget:
        return Limit.TOKENS
    if status.cost_cap is not None and status.cost.dollars >= status.cost_cap:
        return Limit.COST
    return None


def paused_notice(key: str, status: TicketStatus, limit: Limit) -> str:
    """What the ticket says when it pauses at a limit, and how to raise it."""
    if limit == Limit.COST:
        return (
            f"{key} used {money(status.cost.dollars)} in model calls of its cost cap of "
            f"{money(status.cost_cap or 0)} and is paused. Raise the cap with "
            f"`starter.py budget {key} +Nusd` or a `/budget +$N` comment."
        )
    return (
        f"{key} used {status.tokens} model tokens ({status.cost.text()}) of its token budget of "
        f"{status.token_budget} and is paused. Add more with `starter.py budget {key} +N` or a "
        "`/budget +N` comment."
    )


def awaited(limit: Limit) -> str:
    """What a ticket paused at the limit waits for."""
    return "a higher cost cap" if limit == Limit.COST else "more model token budget"


def grant(status: TicketStatus, inp: BudgetInput) -> str:
    """Raise the limit the input names; the decision's text (`+50000 tokens`, `+$5.00`)."""
    if inp.dollars is not None:
        status.cost_cap = (status.cost_cap or status.cost.dollars) + inp.dollars
        return f"+{money(inp.dollars)} cost cap"
    tokens = inp.tokens or 0
    status.token_budget = (status.token_budget or status.tokens) + tokens
    return f"+{tokens} tokens"


def limits_now(status: TicketStatus) -> str:
    """`Token budget is now 9000 (8123 used).` or the cost cap's equivalent."""
    lines = []
    if status.token_budget is not None:
        lines.append(f"Token budget is now {status.token_budget} ({status.tokens} used).")
    if status.cost_cap is not None:
        lines.append(
            f"Cost cap is now {money(status.cost_cap)} ({money(status.cost.dollars)} used)."
        )
    return " ".join(lines)
