"""Runs the Temporal workers: workflows and service activities on one task queue, agents on another.

The model (agent) activities have their own task queue and concurrency limit, so a slow
model never starves Jira, GitHub, Discord or git calls. SIGTERM stops polling and gives
running activities `graceful_shutdown_seconds` to finish before they are cancelled.
"""

import asyncio
import base64
import logging
import signal
from collections.abc import Callable, Sequence
from contextlib import AsyncExitStack
from datetime import timedelta
from typing import Any, NamedTuple

from langchain_core.language_models import BaseChatModel
from pydantic import SecretStr
from temporalio.client import Client
from temporalio.runtime import Runtime
from temporalio.worker import Worker, WorkerDeploymentConfig

from activities.advisories.check import AdvisoryActivities
from activities.agents import AgentActivities
from activities.code_host import CodeHostActivities
from activities.costing import CostInterceptor
from activities.discord import DiscordActivities
from activities.graph_agents import team_agents
from activities.mvp.agents import MvpAgents
from activities.mvp.project import ProjectAgents
from activities.pricing import priced_model
from activities.repo import RepoActivities, Workspaces
from activities.research.agents import ResearchActivities
from activities.review.pull_requests import PullRequestActivities
from activities.review.rounds import RoundActivities
from activities.tracker import TrackerActivities
from config import WorkerSettings, get_settings
from graphs.models import make_chat_model
from integrations.discord.client import DiscordClient
from integrations.environments.build import Environments
from integrations.git.tokens import TokensByHost
from integrations.github.app import GitHubAppConfigError
from integrations.github.auth import github_token_source
from integrations.github.issues import GitHubIssues
from integrations.github.pulls import PullRequestClient
from integrations.gitlab.client import GitLabClient
from integrations.jira.client import JiraClient
from integrations.security.advisories import AdvisoryIndexClient
from integrations.security.secrets import SecretFinder
from integrations.workspace.sandbox import SandboxUnavailable, sandbox_from
from localmodel.provider import resolved_model_provider
from observability.interceptors import ObservabilityInterceptor
from observability.logs import configure_logging, secret_values
from observability.metrics import TicketGauge, metrics_runtime
from observability.tracing import flush_traces
from temporal import connection as temporal_connection
from temporal import deployment
from temporal.client import connect_temporal
from temporal.process_exit import run_then_exit
from tickets.projects import (
    code_host_of,
    discord_webhook_for,
    github_issue_of,
    load_projects,
    tracker_of,
)
from workflows.registry import WORKFLOWS
from workflows.versioning import versioned

log = logging.getLogger("ticketsmith.worker")


def discord_webhooks(settings: WorkerSettings) -> dict[str, str | None]:
    """Discord webhook URLs by Jira project; they stay on the worker, out of histories."""
    projects = load_projects(settings.projects_file)
    return {key: discord_webhook_for(project, settings) for key, project in projects.items()}


def own_secrets(settings: WorkerSettings, webhooks: dict[str, str | None]) -> SecretFinder:
    """What the worker must never publish: each secret setting (and the forms it is sent in)
    and each project's Discord webhook, named for a report."""
    own = {
        f"the worker's {name}": value.get_secret_value()
        for name, value in settings
        if isinstance(value, SecretStr)
    }
    if settings.encryption_keys:  # key_id=key,...: each key alone too
        for entry in settings.encryption_keys.get_secret_value().split(","):
            key_id, _, key = entry.partition("=")
            own[f"the worker's encryption key {key_id.strip()}"] = key.strip()
    github, jira = settings.github_token, settings.jira_token
    own["the worker's git credentials"] = basic_credentials("x-access-token", github)
    own["the worker's GitLab git credentials"] = basic_credentials(
        "x-access-token", settings.gitlab_token
    )
    own["the worker's Jira credentials"] = basic_credentials(settings.jira_email, jira)
    for project, url in webhooks.items():
        if url:
            own[f"the Discord webhook of {project}"] = url.rstrip("/").rpartition("/")[2]
    return SecretFinder(own)


def basic_credentials(user: str, token: SecretStr) -> str:
    """`user:token` as HTTP Basic authentication sends it (base64)."""
    return base64.b64encode(f"{user}:{token.get_secret_value()}".encode()).decode()


class ActivitySets(NamedTuple):
    """Activities by task queue: service calls (Jira, GitHub, Discord, git) and agents (models)."""

    services: Sequence[Callable[..., Any]]
    agents: Sequence[Callable[..., Any]]


def chat_model(settings: WorkerSettings) -> BaseChatModel:
    """The agents' model: the provider, server, temperature and seed the settings name."""
    api_key = settings.openai_api_key.get_secret_value() if settings.openai_api_key else None
    return make_chat_model(
        resolved_model_provider(settings),
        api_key=api_key,
        base_url=settings.openai_base_url,
        model=settings.openai_model,
        temperature=settings.openai_temperature,
        seed=settings.model_seed,
    )


def build_activities(settings: WorkerSettings, stack: AsyncExitStack) -> ActivitySets:
    """Every activity, bound to clients built from settings (the only place that builds them)."""
    webhooks = discord_webhooks(settings)
    secrets = own_secrets(settings, webhooks)
    jira = JiraClient(
        settings.jira_base_url,
        settings.jira_email,
        settings.jira_token.get_secret_value(),
        api_version=settings.jira_api_version,
        acceptance_criteria_field=settings.jira_acceptance_criteria_field,
        secrets=secrets,
    )

    # One source for the API client and git: a GitHub App's tokens are cached once per worker.
    def on_gitlab(repository: str) -> bool:
        return code_host_of(repository, settings) == "gitlab"

    github_tokens = github_token_source(settings)
    github = PullRequestClient(settings.github_api_url, github_tokens, secrets=secrets)
    gitlab_token = settings.gitlab_token.get_secret_value()
    gitlab = GitLabClient(settings.gitlab_api_url, gitlab_token, secrets=secrets)
    git_tokens = TokensByHost(github_tokens, gitlab_token, on_gitlab)
    issues = GitHubIssues(
        settings.github_api_url,
        github_tokens,
        lambda key: github_issue_of(key, settings),
        secrets=secrets,
    )
    discord = DiscordClient(secrets=secrets)
    advisory_url = settings.advisory_index_url
    index = AdvisoryIndexClient(advisory_url) if advisory_url else None
    for client in (jira, github, gitlab, issues, discord, *([index] if index else [])):
        stack.push_async_callback(client.aclose)
    environments = Environments(
        settings.environments_dir,
        sandbox_from(settings),
        settings.environment_setup_timeout_seconds,
        settings.setup_hosts,
    )
    workspaces = Workspaces(
        settings.workspace_dir,
        git_tokens,
        settings.git_author_name,
        settings.git_author_email,
        environments,
        secrets,
    )
    model = chat_model(settings)
    tracker_activities = TrackerActivities(
        lambda key: issues if tracker_of(key, settings) == "github" else jira
    )
    repo_activities = RepoActivities(workspaces)
    agent_activities = AgentActivities(
        model,
        workspaces,
        example_tests=settings.implementation_example_tests,
        definition_edits=settings.implementation_definition_edits,
        definition_targets=settings.implementation_definition_targets,
        first_draft=settings.implementation_first_draft,
        bare_revisions=settings.implementation_bare_revisions,
        candidates=settings.implementation_candidates,
        max_revisions=settings.implementation_max_revisions,
        minutes=settings.implementation_minutes,
    )
    github_activities = CodeHostActivities(github, gitlab, on_gitlab)
    discord_activities = DiscordActivities(discord, webhooks.get)
    project_agents = ProjectAgents(github, workspaces)
    mvp_agents = MvpAgents(model)
    # Graph agents (graphs/dsl/catalog.py): the same activities, callable from a definition.
    team_services, team_models = team_agents(
        agent_activities, tracker_activities, github_activities, discord_activities
    )
    round_activities = RoundActivities(model, workspaces)
    pull_requests = PullRequestActivities(github, gitlab, on_gitlab)
    advisories = AdvisoryActivities(index, workspaces)
    services: list[Callable[..., Any]] = [
        tracker_activities.fetch_ticket,
        tracker_activities.post_comment,
        tracker_activities.transition_issue,
        tracker_activities.look_up_approver,
        github_activities.open_pull_request,
        discord_activities.notify_discord,
        repo_activities.prepare_repository,
        repo_activities.commit_files,
        repo_activities.run_tests,
        advisories.check_dependency_advisories,
        pull_requests.read_ci_failure,
        pull_requests.rerun_ci_job,
        pull_requests.comment_on_pull_request,
        pull_requests.reply_to_review_comment,
        *team_services,
        project_agents.mvp_tester,
        project_agents.forge_publish,
        # Research agents mostly wait on the tool server: they share the service queue.
        *ResearchActivities(model, settings.toolserver_url).all(),
    ]
    agents: list[Callable[..., Any]] = [
        agent_activities.analyse_codebase,
        agent_activities.generate_questions,
        agent_activities.refine_requirements,
        agent_activities.generate_plan,
        agent_activities.implement_changes,
        round_activities.revise_pull_request,
        round_activities.update_from_base,
        round_activities.commit_round_changes,
        round_activities.judge_review_comments,
        *team_models,
        mvp_agents.mvp_manager,
        mvp_agents.mvp_architect,
        mvp_agents.mvp_swe_worker,
        mvp_agents.mvp_qa,
    ]
    return ActivitySets(services, agents)


def build_workers(
    client: Client,
    settings: WorkerSettings,
    activities: ActivitySets,
    workflows: Sequence[type] = WORKFLOWS,
) -> list[Worker]:
    """The workflow-and-services worker and, on its own task queue, the agent worker; with
    versioning on, both poll as the settings' Worker Deployment Version."""
    versioning = worker_deployment(settings)
    if versioning is not None:
        workflows = versioned(list(workflows))
    common: dict[str, Any] = {
        "interceptors": [
            ObservabilityInterceptor(),
            CostInterceptor(priced_model(settings), settings.prices()),
        ],
        "graceful_shutdown_timeout": timedelta(seconds=settings.graceful_shutdown_seconds),
        # Heartbeats carry checkpoints: sent within 2 s, a lost worker repeats little work.
        "max_heartbeat_throttle_interval": timedelta(seconds=2),
        "default_heartbeat_throttle_interval": timedelta(seconds=2),
        "deployment_config": versioning,
    }
    separate = bool(activities.agents) and settings.agent_task_queue != settings.task_queue
    main = Worker(
        client,
        task_queue=settings.task_queue,
        workflows=workflows,
        # Agents stay registered here too, for tickets started without an agent task queue.
        activities=[*activities.services, *activities.agents],
        max_concurrent_activities=settings.max_concurrent_http_activities,
        **common,
    )
    if not separate:
        return [main]
    agents = Worker(
        client,
        task_queue=settings.agent_task_queue,
        activities=list(activities.agents),
        max_concurrent_activities=settings.max_concurrent_agent_activities,
        **common,
    )
    return [main, agents]


async def run_workers(workers: Sequence[Worker], stop: asyncio.Event) -> None:
    """Run the workers until `stop` is set or one fails, then shut them all down together."""
    runs = [asyncio.create_task(worker.run()) for worker in workers]
    stopping = asyncio.create_task(stop.wait())
    await asyncio.wait([*runs, stopping], return_when=asyncio.FIRST_COMPLETED)
    stopping.cancel()
    # Polling stops at once; running activities get the grace period, then are cancelled
    # (they see the cancellation where they await or heartbeat) and retry on another worker.
    await asyncio.gather(
        *(worker.shutdown() for worker in workers if not worker.is_shutdown),
        return_exceptions=True,
    )
    await asyncio.gather(*runs)


async def run_worker(settings: WorkerSettings, client: Client, stop: asyncio.Event) -> None:
    """Poll both task queues until `stop` is set, then shut down gracefully."""
    async with AsyncExitStack() as stack:
        workers = build_workers(client, settings, build_activities(settings, stack))
        tasks = []
        if settings.metrics_port and settings.ticket_gauge_seconds:
            runtime = client.service_client.config.runtime or Runtime.default()
            gauge = TicketGauge(client, runtime.metric_meter)
            tasks.append(asyncio.create_task(gauge.run(settings.ticket_gauge_seconds, stop)))
        log.info(
            "worker polling task queues %s with model %s; metrics %s; %s",
            ", ".join(w.task_queue for w in workers),
            resolved_model_provider(settings),
            f"on {settings.metrics_host}:{settings.metrics_port}"
            if settings.metrics_port
            else "off",
            deployment.in_words(worker_deployment(settings)),
        )
        await run_workers(workers, stop)
        await asyncio.gather(*tasks)


def check_sandbox(settings: WorkerSettings) -> None:
    """Refuse to start when workspace commands cannot be sandboxed (unless told `none`)."""
    sandbox = sandbox_from(settings)
    if not sandbox.sandboxed:
        log.warning(
            "TICKETSMITH_SANDBOX=none: tests and other workspace commands run UNSANDBOXED, as "
            "this worker's user, with its network; every test report says so"
        )
        return
    try:
        sandbox.check()
    except SandboxUnavailable as err:
        log.error("worker not started: %s", err)
        raise SystemExit(f"worker not started: {err}") from err
    log.info(
        "workspace commands run in bubblewrap (no network, limits %s); isolation between runs: %s",
        sandbox.limits,
        sandbox.isolation(),
    )


def worker_deployment(settings: WorkerSettings) -> WorkerDeploymentConfig | None:
    """The Worker Deployment Version the workers poll as; None unversioned."""
    return deployment.deployment_config(
        settings.worker_versioning, settings.worker_deployment_name, settings.worker_build_id
    )


def check_versioning(settings: WorkerSettings) -> None:
    """Refuse to start with versioning on and no deployment name or build id."""
    try:
        worker_deployment(settings)
    except deployment.VersioningConfigError as err:
        log.error("worker not started: %s", err)
        raise SystemExit(f"worker not started: {err}") from err


def check_github_app(settings: WorkerSettings) -> None:
    """Refuse to start when the GitHub App's private key cannot be read or parsed."""
    try:
        github_token_source(settings)
    except GitHubAppConfigError as err:
        log.error("worker not started: %s", err)
        raise SystemExit(f"worker not started: {err}") from err


async def main() -> None:
    """Entry point: run until SIGINT or SIGTERM."""
    settings = get_settings(WorkerSettings)
    configure_logging(secrets=[*secret_values(settings), *temporal_connection.secrets()])
    # Only ticketsmith's own loggers: other libraries' debug lines can carry request headers.
    logging.getLogger("ticketsmith").setLevel(settings.log_level)
    check_versioning(settings)
    check_sandbox(settings)
    check_github_app(settings)
    runtime = metrics_runtime(settings.metrics_host, settings.metrics_port)
    try:
        client = await connect_temporal(settings, runtime)
    except temporal_connection.TemporalConfigError as err:
        log.error("worker not started: %s", err)
        raise SystemExit(f"worker not started: {err}") from None
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    try:
        await run_worker(settings, client, stop)
    finally:
        flush_traces()


if __name__ == "__main__":
    run_then_exit(main)
