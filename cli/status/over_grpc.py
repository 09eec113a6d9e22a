"""The status of a ticket: a query while it runs, what the closed workflow holds once it ended.

A closed workflow's result, search attributes and failure are kept by the server: reading them
needs no worker and no replay, so a finished ticket answers even when no worker runs.
"""

from datetime import timedelta
from typing import Any

from google.protobuf.json_format import MessageToDict
from temporalio.client import (
    Client,
    WorkflowExecutionDescription,
    WorkflowExecutionStatus,
    WorkflowFailureError,
    WorkflowHandle,
    WorkflowQueryFailedError,
)
from temporalio.common import SearchAttributeKey
from temporalio.service import RPCError, RPCStatusCode

from cli.status.as_json import StatusJson, as_json
from cli.status.endings import ended_message, ended_status, recorded
from cli.status.worker_version import worker_version
from temporal.http_api import never_started, no_worker_answered
from tickets.launch import workflow_id
from vocabulary.failures import failure_in_words
from workflows.ticket.messages import Phase, Status, TicketResult, TicketStatus

PHASE = SearchAttributeKey.for_keyword("Phase")
STATUS = SearchAttributeKey.for_keyword("Status")


class StatusUnreadable(Exception):
    """The status cannot be read; the message says why and what to do."""


class NeverStarted(StatusUnreadable):
    """No workflow has the ticket's id."""


async def read_status(client: Client, key: str, query_timeout: timedelta) -> TicketStatus:
    """Where a ticket is: its closed run's record, or the live answer of its status query."""
    handle, described = await _describe(client, key)
    return await _status(handle, key, described, query_timeout)


async def shown_status(client: Client, key: str, query_timeout: timedelta) -> StatusJson:
    """The status as `starter.py status` shows it: `read_status`'s answer with the Worker
    Deployment Version the run is on (`worker_version`) when versioned."""
    handle, described = await _describe(client, key)
    shown = as_json(await _status(handle, key, described, query_timeout))
    info = described.raw_description.workflow_execution_info
    if info.HasField("versioning_info"):
        versioning = {"versioningInfo": MessageToDict(info.versioning_info)}
        if version := worker_version(versioning):
            shown["worker_version"] = version
    return shown


async def _describe(
    client: Client, key: str
) -> tuple[WorkflowHandle[Any, TicketResult], WorkflowExecutionDescription]:
    handle = client.get_workflow_handle(workflow_id(key), result_type=TicketResult)
    try:
        return handle, await handle.describe()
    except RPCError as err:
        if err.status == RPCStatusCode.NOT_FOUND:
            raise NeverStarted(never_started(key)) from None
        raise StatusUnreadable(f"Temporal did not describe {key}: {err.message}") from err


async def _status(
    handle: WorkflowHandle[Any, TicketResult],
    key: str,
    described: WorkflowExecutionDescription,
    query_timeout: timedelta,
) -> TicketStatus:
    if described.status == WorkflowExecutionStatus.RUNNING:
        return await _query(handle, key, described, query_timeout)
    return await closed_status(handle, key, described)


async def _query(
    handle: WorkflowHandle[Any, TicketResult],
    key: str,
    described: WorkflowExecutionDescription,
    timeout: timedelta,
) -> TicketStatus:
    try:
        return await handle.query("status", result_type=TicketStatus, rpc_timeout=timeout)
    except (RPCError, WorkflowQueryFailedError) as err:
        reason = err.message if isinstance(err, RPCError) else str(err)
        phase, status = indexed(described)
        raise StatusUnreadable(
            no_worker_answered(key, timeout.total_seconds(), reason, phase.value, status.value)
        ) from err


async def closed_status(
    handle: WorkflowHandle[Any, TicketResult], key: str, described: WorkflowExecutionDescription
) -> TicketStatus:
    """The status of a ticket whose workflow has closed, from what the server keeps."""
    phase, status = indexed(described)
    # A run that ended before it could record how (terminated, timed out) ends as its state says.
    status = ended_status(described.status.name if described.status else "", status)
    try:
        result = await handle.result(follow_runs=False)
    except WorkflowFailureError as err:
        return TicketStatus(key=key, phase=phase, status=status, message=ended_why(status, err))
    except RPCError as err:
        raise StatusUnreadable(
            f"cannot read how {key} ended: Temporal did not return its result ({err.message})"
        ) from err
    return result.as_status()


def indexed(described: WorkflowExecutionDescription) -> tuple[Phase, Status]:
    """The phase and status the workflow last wrote to its search attributes."""
    attributes = described.typed_search_attributes
    return recorded(attributes.get(PHASE), attributes.get(STATUS))


def ended_why(status: Status, err: WorkflowFailureError) -> str:
    """Why a run that did not complete ended, as the workflow itself words it."""
    return ended_message(status, failure_in_words(err))
