"""A comment on a ticket's issue (Jira or GitHub Issues) delivered as the signal it stands for."""

import logging
from collections.abc import Callable

from fastapi.responses import JSONResponse
from temporalio.client import Client, WorkflowExecutionStatus
from temporalio.common import SearchAttributeKey
from temporalio.service import RPCError, RPCStatusCode

from tickets.launch import workflow_id
from webhooks.commands import CommandError, parse_comment
from webhooks.jira_events import CommentEvent
from webhooks.responses import error, ignored
from workflows.ticket.messages import AnswerInput, Phase, SayInput, Status

log = logging.getLogger("ticketsmith.webhooks")
STATUS = SearchAttributeKey.for_keyword("Status")
PHASE = SearchAttributeKey.for_keyword("Phase")
STEERABLE = (Phase.IMPLEMENTATION.value, Phase.REVIEW.value)
# The status a ticket must be in for each kind of comment to mean something (None: any).
NEEDS: dict[str, tuple[Status | None, str]] = {
    "add_budget": (None, "more tokens or a higher cost cap"),
    "answer": (Status.AWAITING_ANSWERS, "answers"),
    "approve": (Status.AWAITING_APPROVAL, "an approval"),
    "reject": (Status.AWAITING_APPROVAL, "a rejection"),
    "say": (Status.RUNNING, "guidance"),
    "stop": (Status.RUNNING, "a stop"),
}


async def deliver_comment(
    temporal: Client,
    comment: CommentEvent,
    input_key: str | None,
    unsigned: bool,
    no_ticket: Callable[[str], JSONResponse],
) -> JSONResponse:
    """Signal the ticket's workflow with what the comment carries, if it waits for that.

    `input_key` identifies the input across deliveries (the tracker's comment id);
    `no_ticket` answers for an issue no workflow works on.
    """
    try:
        message = parse_comment(comment.text, comment.author_name, input_key, comment.author_ids)
        unusable = None
    except CommandError as err:
        message, unusable = None, err
    if message is None and unusable is None:
        return ignored("own comment")
    handle = temporal.get_workflow_handle(workflow_id(comment.issue_key))
    try:
        described = await handle.describe()
    except RPCError as err:
        if err.status == RPCStatusCode.NOT_FOUND:  # no ticket: even a bad command is chatter
            return no_ticket(comment.issue_key)
        raise
    if message is None:
        log.warning("unusable command on %s: %s", comment.issue_key, unusable)
        return error(422, f"{comment.issue_key}: {unusable}")
    signal_name, signal_input = message
    signal_input.unsigned = unsigned
    if described.status != WorkflowExecutionStatus.RUNNING:
        state = described.status.name.lower() if described.status else "closed"
        return ignored(f"{handle.id} is {state}; nothing waits for comments")
    current = described.typed_search_attributes.get(STATUS) or Status.RUNNING.value
    phase = described.typed_search_attributes.get(PHASE) or ""
    if isinstance(signal_input, AnswerInput) and phase in STEERABLE and current == "running":
        # Words for a ticket that implements (or runs a review round) guide its next revision.
        signal_name = "say"
        signal_input = SayInput(
            text=signal_input.text, author=signal_input.author,
            delivery_id=signal_input.delivery_id, unsigned=signal_input.unsigned,
        )  # fmt: skip
    if signal_name == "stop" and phase not in STEERABLE:
        return ignored(f"{comment.issue_key} is not implementing: it is {phase or current}")
    wanted, what = NEEDS[signal_name]
    if wanted is not None and current != wanted.value:
        return ignored(f"{comment.issue_key} is not waiting for {what}: it is {current}")
    try:
        await handle.signal(signal_name, signal_input)
    except RPCError as err:
        if err.status == RPCStatusCode.NOT_FOUND:
            return ignored(f"{handle.id} finished before the comment arrived")
        raise
    return JSONResponse({"status": "accepted", "signal": signal_name}, status_code=202)
