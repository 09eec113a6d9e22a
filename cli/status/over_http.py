"""A ticket's status over Temporal's HTTP API, whatever state its run is in, read as
`cli.status.over_grpc.read_status` reads it over gRPC, and kept as the JSON it arrives as."""

from typing import Any

from cli.status.as_json import StatusJson, result_status
from cli.status.endings import ended_message, ended_status, recorded
from cli.status.worker_version import worker_version
from cli.terminal import CommandError
from temporal import http_api as api
from temporal_settings import TemporalEndpoints
from vocabulary.ticket_states import Phase, Status


def ticket_status(settings: TemporalEndpoints, key: str) -> StatusJson:
    """The ticket's status, as `cli.status.over_grpc.shown_status` reads it over gRPC: the status
    query's answer while it runs, what it returned once it completed, how it ended otherwise
    (as JSON: `TicketStatus.model_validate` of it equals the gRPC read), with the Worker
    Deployment Version its run is on (`worker_version`) when versioned.

    A ticket never started is a CommandError; `QueryUnanswered` says why a running one whose
    worker does not answer cannot be read.
    """
    try:
        described = api.describe(settings, f"ticket-{key}")
    except api.NotStarted:
        raise CommandError(api.never_started(key)) from None
    info = described.get("workflowExecutionInfo", {})
    status = run_status(settings, key, info)
    if version := worker_version(info):
        status["worker_version"] = version
    return status


def run_status(settings: TemporalEndpoints, key: str, info: dict[str, Any]) -> StatusJson:
    """The status of the ticket's run the server described as `info`."""
    workflow_id = f"ticket-{key}"
    state = str(info.get("status", ""))
    attrs = api.search_attributes(info)
    if state == api.RUNNING:
        try:
            return dict(api.query(settings, workflow_id, "status"))
        except api.QueryUnanswered as err:
            raise api.QueryUnanswered(
                api.no_worker_answered(
                    key,
                    settings.status_query_seconds,
                    str(err),
                    attrs.get("Phase", Phase.REFINEMENT.value),
                    attrs.get("Status", Status.RUNNING.value),
                )  # fmt: skip
            ) from None
    closing = api.closing_event(settings, workflow_id)
    if state == api.COMPLETED:
        return result_status(api.returned(closing))
    phase, last_status = recorded(attrs.get("Phase"), attrs.get("Status"))
    ended = ended_status(state.removeprefix(api.RUN_STATE_PREFIX), last_status)
    message = ended_message(ended, api.why_it_closed(closing))
    return {"key": key, "phase": phase.value, "status": ended.value, "message": message}
