"""Turn a Jira comment into the human input it carries: answers, approval, rejection or budget."""

import re
from collections.abc import Sequence

from vocabulary.amounts import dollars_in
from workflows.ticket.messages import (
    AnswerInput,
    ApprovalInput,
    BudgetInput,
    RejectionInput,
    SayInput,
    StopInput,
)

APPROVE = re.compile(r"^\s*/approve\b", re.IGNORECASE)
REJECT = re.compile(r"^\s*/reject\b\s*(?P<reason>.*)", re.IGNORECASE | re.DOTALL)
BUDGET = re.compile(r"^\s*/budget\b\s*(?P<amount>\S*)", re.IGNORECASE)
STOP = re.compile(r"^\s*/stop\b", re.IGNORECASE)
AMOUNT = re.compile(r"\+?(?P<number>\d[\d_,]*)(?P<thousands>k?)", re.IGNORECASE)
OWN_COMMENT = "ticketsmith ref:"

HumanMessage = tuple[
    str, AnswerInput | ApprovalInput | RejectionInput | BudgetInput | SayInput | StopInput
]


class CommandError(ValueError):
    """A comment that starts like a command but cannot be read as one."""


def budget_tokens(amount: str) -> int:
    """Tokens in `+50000`, `50,000` or `50k`; CommandError for anything else."""
    found = AMOUNT.fullmatch(amount)
    tokens = int(found["number"].replace(",", "").replace("_", "")) if found else 0
    if found and found["thousands"]:
        tokens *= 1000
    if tokens <= 0:
        raise CommandError(
            f"`/budget {amount}` names no positive number of tokens or dollars; "
            "write it as `/budget +50000` (or `/budget +50k`), or `/budget +$5` for the cost cap"
        )
    return tokens


def parse_comment(
    text: str, author: str, delivery_id: str | None, author_ids: Sequence[str] = ()
) -> HumanMessage | None:
    """The signal name and payload a comment stands for; None for our own comments.

    Raises CommandError for a `/budget` comment without a usable amount.
    """
    if OWN_COMMENT in text:
        return None
    budget = BUDGET.match(text)
    if budget:
        amount = budget.group("amount")
        dollars = dollars_in(amount)
        more = {"dollars": dollars} if dollars else {"tokens": budget_tokens(amount)}
        return "add_budget", BudgetInput(**more, author=author, delivery_id=delivery_id)
    if STOP.match(text):
        return "stop", StopInput(author=author, delivery_id=delivery_id)
    if APPROVE.match(text):
        ids = list(author_ids)
        return "approve", ApprovalInput(author=author, author_ids=ids, delivery_id=delivery_id)
    rejection = REJECT.match(text)
    if rejection:
        reason = rejection.group("reason").strip() or "no reason given"
        return "reject", RejectionInput(
            reason=reason, author=author, author_ids=list(author_ids), delivery_id=delivery_id
        )
    return "answer", AnswerInput(text=text.strip(), author=author, delivery_id=delivery_id)
