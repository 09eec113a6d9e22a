"""What the command line does: start, human input, status, list and cancel, as one-line results."""

import asyncio
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any, NamedTuple, TypeVar

from temporalio.client import Client, WorkflowFailureError, WorkflowUpdateFailedError
from temporalio.exceptions import ApplicationError, CancelledError
from temporalio.service import RPCError, RPCStatusCode

from cli.status.as_json import StatusJson
from cli.status.over_grpc import StatusUnreadable, read_status, shown_status
from cli.terminal import CommandError
from config import CommandLineSettings
from temporal.client import connect_temporal
from temporal.connection import TemporalConfigError
from tickets.launch import LaunchError, start_ticket, ticket_input, web_ui_link, workflow_id
from tickets.routing import TicketFacts
from vocabulary.amounts import dollars_in
from workflows.ticket.messages import BudgetInput, HumanInputAccepted, TicketStatus

T = TypeVar("T")


async def connect(settings: CommandLineSettings) -> Client:
    """The Temporal client, or a clear error when the server is not there."""
    try:
        return await connect_temporal(settings)
    except TemporalConfigError as err:
        raise CommandError(str(err)) from None
    except RuntimeError as err:
        raise CommandError(
            f"cannot reach Temporal at {settings.temporal_address} ({err}); "
            "is the stack running? (make up)"
        ) from err


class FiledTicket(NamedTuple):
    """What starting a ticket reads of its issue: the summary, and what routes it."""

    summary: str
    labels: list[str]
    components: list[str]


async def ensure_ticket_exists(settings: CommandLineSettings, key: str) -> FiledTicket:
    """Read the ticket from its tracker (Jira, or its GitHub issue), turning 'not found' into
    a clear error."""
    # Only `start` reads the tracker: status and list stay quick without httpx and the parsers.
    import httpx

    from integrations.github.auth import github_token_source
    from integrations.github.issues import GitHubIssues
    from integrations.jira.client import JiraClient, JiraIssue
    from tickets.projects import github_issue_of, tracker_of

    on_github = tracker_of(key, settings) == "github"
    if on_github:
        repository, number = github_issue_of(key, settings)
        where = f"GitHub issue {repository}#{number}"
        tracker: GitHubIssues | JiraClient = GitHubIssues(
            settings.github_api_url,
            github_token_source(settings),
            lambda _: (repository, number),
        )
    else:
        where = f"Jira at {settings.jira_base_url}"
        tracker = JiraClient(
            settings.jira_base_url,
            settings.jira_email,
            settings.jira_token.get_secret_value(),
            api_version=settings.jira_api_version,
        )
    try:
        issue = await tracker.get_issue(key)
        components = list(issue.components) if isinstance(issue, JiraIssue) else []
        return FiledTicket(issue.summary, list(issue.labels), components)
    except ApplicationError as err:
        if err.type in ("JiraNotFound", "GitHubNotFound"):
            if on_github:
                raise CommandError(f"ticket {key} is no {where}") from None
            raise CommandError(f"ticket {key} does not exist in {where}") from None
        raise CommandError(f"{where} refused to read {key}: {err.message}") from err
    except httpx.HTTPError as err:
        raise CommandError(f"cannot reach {where}: {err}") from err
    finally:
        await tracker.aclose()


async def start(settings: CommandLineSettings, key: str, restart: bool, auto: bool = False) -> str:
    """Start the ticket workflow, or attach to the one already running."""
    try:
        ticket_input(key, settings, auto=auto)  # a bad key or project fails before Jira is asked
        issue = await ensure_ticket_exists(settings, key)
        facts = TicketFacts(labels=issue.labels, components=issue.components)
        inp = ticket_input(key, settings, auto=auto, facts=facts)
        summary = issue.summary
        client = await connect(settings)
        outcome = await start_ticket(client, settings, inp, summary, restart=restart)
    except LaunchError as err:
        raise CommandError(str(err)) from err
    link = web_ui_link(settings, outcome.workflow_id, outcome.run_id)
    if outcome.attached:
        return f"{key} is already being worked on; attached to {outcome.workflow_id}\n{link}"
    return f"started {outcome.workflow_id} for {key}: {summary}\n{link}"


async def send_update(settings: CommandLineSettings, key: str, update: str, payload: Any) -> str:
    """Send human input as an update; a refusal comes back as one clear line."""
    client = await connect(settings)
    handle = client.get_workflow_handle(workflow_id(key))
    try:
        accepted = await handle.execute_update(update, payload, result_type=HumanInputAccepted)
    except RPCError as err:
        if err.status == RPCStatusCode.NOT_FOUND:
            raise CommandError(
                f"{key} is not being worked on; start it with: starter.py {key}"
            ) from err
        raise CommandError(f"Temporal refused the {update} for {key}: {err.message}") from err
    except WorkflowUpdateFailedError as err:
        # The validator's refusal says what the ticket is waiting for instead.
        raise CommandError(getattr(err.cause, "message", None) or str(err)) from None
    if not accepted.accepted:
        raise CommandError(accepted.message)
    return accepted.message


async def status(settings: CommandLineSettings, key: str) -> TicketStatus:
    """Where the ticket is; a finished ticket answers without a worker."""
    return await _read_status(settings, key, read_status)


async def status_shown(settings: CommandLineSettings, key: str) -> StatusJson:
    """The status as `starter.py status` shows it, with the worker version the run is on."""
    return await _read_status(settings, key, shown_status)


async def _read_status(
    settings: CommandLineSettings, key: str, read: Callable[[Client, str, timedelta], Awaitable[T]]
) -> T:
    client = await connect(settings)
    try:
        return await read(client, key, timedelta(seconds=settings.status_query_seconds))
    except StatusUnreadable as err:
        raise CommandError(str(err)) from None


async def list_runs(
    settings: CommandLineSettings, workflow_type: str, status_filter: str | None
) -> list[dict[str, str]]:
    """Runs of one workflow type, newest first: id, search attributes, start and run state."""
    client = await connect(settings)
    query = f"WorkflowType = '{workflow_type}'"
    if status_filter:
        # `Status` needs backquotes: SQL visibility reserves the bare word.
        query += f" AND `Status` = '{status_filter}'"
    rows = []
    async for wf in client.list_workflows(query, limit=200):
        attrs = {key.name: value for key, value in wf.typed_search_attributes}
        rows.append(
            {
                "id": wf.id,
                "ticket": str(attrs.get("TicketKey", "")),
                "status": str(attrs.get("Status", "")),
                "phase": str(attrs.get("Phase", "")),
                "started": wf.start_time.strftime("%Y-%m-%d %H:%M"),
                "run": wf.status.name.lower() if wf.status else "",
            }
        )
    return rows


async def list_tickets(
    settings: CommandLineSettings, status_filter: str | None
) -> list[dict[str, str]]:
    """Tickets known to Temporal, newest first, from a visibility query."""
    rows = await list_runs(settings, "TicketWorkflow", status_filter)
    return [
        {
            "key": row["ticket"] or row["id"].removeprefix("ticket-"),
            **{k: row[k] for k in ("status", "phase", "started", "run")},
        }
        for row in rows
    ]


async def cancel(settings: CommandLineSettings, key: str, wait_s: float = 60) -> str:
    """Cancel a ticket; the workflow reports on Jira and Discord before it ends."""
    client = await connect(settings)
    handle = client.get_workflow_handle(workflow_id(key))
    try:
        await handle.cancel()
    except RPCError as err:
        if err.status == RPCStatusCode.NOT_FOUND:
            raise CommandError(f"{key} is not being worked on; nothing to cancel") from None
        raise CommandError(f"cannot cancel {key}: {err.message}") from err
    try:
        await asyncio.wait_for(handle.result(), wait_s)
    except WorkflowFailureError as err:
        if isinstance(err.cause, CancelledError):
            return f"{key} cancelled; its tracker and Discord were told where the branch is."
        raise CommandError(f"{key} ended while cancelling: {err.cause}") from None
    except TimeoutError:
        return f"cancel requested for {key}; it stops after its current step"
    return f"{key} had already finished; nothing was cancelled"


def parse_budget(amount: str, author: str) -> BudgetInput:
    """`+N` (or `N`) more tokens, or `+$N` more dollars of cost cap."""
    dollars = dollars_in(amount)
    if dollars:
        return BudgetInput(dollars=dollars, author=author)
    try:
        tokens = int(amount.removeprefix("+"))
    except ValueError:
        tokens = 0
    if tokens <= 0:
        raise CommandError(
            f"'{amount}' is not a token or dollar amount; write it like +50000 (tokens) "
            "or +5usd (dollars of cost cap; '+$5' works quoted)"
        )
    return BudgetInput(tokens=tokens, author=author)
