"""Starting a ticket workflow: shared by the command line and the webhook app."""

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from temporalio.client import Client, WorkflowExecutionStatus, WorkflowHandle
from temporalio.common import WorkflowIDConflictPolicy, WorkflowIDReusePolicy
from temporalio.service import RPCError, RPCStatusCode

from config import TicketStarterSettings
from tickets.projects import ProjectConfig, ProjectConfigError, clone_url_for, project_for
from tickets.routing import RoutingError, TicketFacts, choose_repository
from workflows.review.messages import ReviewPolicy
from workflows.ticket.messages import ApprovalPolicy, TicketInput, TicketProject, WaitPolicy


class LaunchError(Exception):
    """The ticket cannot be started; the message says why and what to do."""


@dataclass(frozen=True)
class StartOutcome:
    """What starting a ticket did."""

    workflow_id: str
    run_id: str | None
    attached: bool


def workflow_id(key: str) -> str:
    """One workflow per ticket key."""
    return f"ticket-{key}"


def web_ui_link(settings: TicketStarterSettings, wf_id: str, run_id: str | None = None) -> str:
    """Where to watch the workflow in the Temporal Web UI."""
    base = f"{settings.temporal_ui_url}/namespaces/{settings.temporal_namespace}/workflows/{wf_id}"
    return f"{base}/{run_id}/history" if run_id else base


def closed_issue(key: str, project: ProjectConfig, repository: str) -> str | None:
    """How the pull request names the GitHub issue it closes: `#n` in the issue's own
    repository, `owner/name#n` from another; None for a Jira ticket."""
    if project.tracker != "github":
        return None
    number = project.issue_number(key)
    same = project.tracked_issues.casefold() == repository.casefold()
    return f"#{number}" if same else f"{project.tracked_issues}#{number}"


def ticket_input(
    key: str,
    settings: TicketStarterSettings,
    *,
    auto: bool = False,
    facts: TicketFacts | None = None,
) -> TicketInput:
    """The workflow input for a ticket, from its project's config (no secrets).

    `facts` (its labels and components) choose among the project's repositories.
    """
    try:
        project = project_for(key, settings)
        repo = choose_repository(project, facts or TicketFacts())
    except (ProjectConfigError, RoutingError) as err:
        raise LaunchError(f"{key}: {err}" if isinstance(err, RoutingError) else str(err)) from err
    return TicketInput(
        key=key,
        project=TicketProject(
            jira_project=project.jira_project,
            repository=repo.repository,
            clone_url=clone_url_for(repo, settings, project.code_host),
            base_branch=repo.base_branch or project.base_branch,
            test_command=repo.test_command or project.test_command,
            setup_command=repo.setup_command or project.setup_command,
            implement_after_approval=project.implement_after_approval,
            instruction_checks=project.instruction_checks,
            closes_issue=closed_issue(key, project, repo.repository),
        ),
        auto=auto,
        max_plan_rejections=project.max_plan_rejections,
        token_budget=project.token_budget,
        cost_cap=project.cost_cap,
        work_minutes=project.work_minutes,
        waits=WaitPolicy(
            reminder_interval=timedelta(hours=project.reminder_interval_hours),
            max_reminders=project.max_reminders,
            expire_after=timedelta(days=project.expire_after_days),
        ),
        agent_task_queue=settings.agent_task_queue,
        approval=ApprovalPolicy(
            approvers=project.approvers,
            required=project.approvals_required,
            reporter_may_approve=project.reporter_may_approve,
        ),
        review=ReviewPolicy(
            follow_pull_request=project.follow_pull_request,
            done_status=project.done_status,
            max_ci_fix_rounds=project.max_ci_fix_rounds,
            max_review_rounds=project.max_review_rounds,
            ci_reruns_per_commit=settings.ci_reruns_per_commit,
            expire_after=timedelta(days=project.review_expire_after_days),
        ),
    )


async def describe(handle: WorkflowHandle[Any, Any]) -> Any:
    """The workflow's description, or None when there is none with this id."""
    try:
        return await handle.describe()
    except RPCError as err:
        if err.status == RPCStatusCode.NOT_FOUND:
            return None
        raise


async def start_ticket(
    client: Client,
    settings: TicketStarterSettings,
    inp: TicketInput,
    summary: str,
    *,
    restart: bool = False,
) -> StartOutcome:
    """Start the ticket's workflow, or attach to the one running; a finished one needs restart."""
    wf_id = workflow_id(inp.key)
    existing = await describe(client.get_workflow_handle(wf_id))
    if existing and existing.status == WorkflowExecutionStatus.RUNNING:
        return StartOutcome(wf_id, existing.run_id, attached=True)
    if existing and not restart:
        state = existing.status.name.lower() if existing.status else "finished"
        raise LaunchError(
            f"{wf_id} already ran and is {state}; to work on {inp.key} again, run: "
            f"starter.py {inp.key} --restart"
        )
    if existing:
        inp = inp.model_copy(update={"restarted": True})
    handle = await client.start_workflow(
        "TicketWorkflow",
        inp,
        id=wf_id,
        task_queue=settings.task_queue,
        id_conflict_policy=WorkflowIDConflictPolicy.USE_EXISTING,
        id_reuse_policy=WorkflowIDReusePolicy.ALLOW_DUPLICATE,
        static_summary=f"{inp.key}: {summary}",
    )
    return StartOutcome(wf_id, handle.result_run_id, attached=False)
