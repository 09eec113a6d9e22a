"""Turn a Jira comment into the human input it carries: answers, approval or rejection."""

import re

from workflows.messages import AnswerInput, ApprovalInput, RejectionInput

APPROVE = re.compile(r"^\s*/approve\b", re.IGNORECASE)
REJECT = re.compile(r"^\s*/reject\b\s*(?P<reason>.*)", re.IGNORECASE | re.DOTALL)
OWN_COMMENT = "ticketsmith ref:"

HumanMessage = tuple[str, AnswerInput | ApprovalInput | RejectionInput]


def parse_comment(text: str, author: str, delivery_id: str | None) -> HumanMessage | None:
    """The signal name and payload a comment stands for; None for our own comments."""
    if OWN_COMMENT in text:
        return None
    if APPROVE.match(text):
        return "approve", ApprovalInput(author=author, delivery_id=delivery_id)
    rejection = REJECT.match(text)
    if rejection:
        reason = rejection.group("reason").strip() or "no reason given"
        return "reject", RejectionInput(reason=reason, author=author, delivery_id=delivery_id)
    return "answer", AnswerInput(text=text.strip(), author=author, delivery_id=delivery_id)
