"""Runs the Temporal worker: the ticket workflow and every activity, with clients from settings."""

import asyncio
import logging
import signal
from collections.abc import Sequence
from contextlib import AsyncExitStack
from datetime import timedelta
from typing import Any

from integrations.discord import DiscordClient
from integrations.github import GitHubClient
from integrations.jira import JiraClient
from temporalio.client import Client
from temporalio.worker import Worker

from activities.agents import AgentActivities
from activities.discord import DiscordActivities
from activities.github import GitHubActivities
from activities.jira import JiraActivities
from activities.repo import RepoActivities, Workspaces
from config import Settings, connect_temporal, get_settings, load_projects
from graphs.models import make_chat_model
from logs import configure_logging
from workflows.registry import WORKFLOWS

log = logging.getLogger("ticketsmith.worker")


def discord_webhooks(settings: Settings) -> dict[str, str | None]:
    """Discord webhook URLs by Jira project; they stay on the worker, out of histories."""
    projects = load_projects(settings.projects_file)
    return {key: project.discord_webhook_url for key, project in projects.items()}


def build_activities(settings: Settings, stack: AsyncExitStack) -> Sequence[Any]:
    """Every activity, bound to clients built from settings (the only place that builds them)."""
    jira = JiraClient(
        settings.jira_base_url,
        settings.jira_email,
        settings.jira_token.get_secret_value(),
        api_version=settings.jira_api_version,
    )
    github = GitHubClient(settings.github_api_url, settings.github_token.get_secret_value())
    discord = DiscordClient()
    for client in (jira, github, discord):
        stack.push_async_callback(client.aclose)
    workspaces = Workspaces(
        settings.workspace_dir,
        settings.github_token.get_secret_value(),
        settings.git_author_name,
        settings.git_author_email,
    )
    api_key = settings.openai_api_key.get_secret_value() if settings.openai_api_key else None
    model = make_chat_model(
        settings.resolved_model_provider,
        api_key=api_key,
        base_url=settings.openai_base_url,
        model=settings.openai_model,
        temperature=settings.openai_temperature,
    )
    webhooks = discord_webhooks(settings)
    jira_activities = JiraActivities(jira)
    repo_activities = RepoActivities(workspaces)
    agent_activities = AgentActivities(model, workspaces)
    return [
        jira_activities.fetch_jira_ticket,
        jira_activities.post_jira_comment,
        jira_activities.transition_jira_issue,
        GitHubActivities(github).open_pull_request,
        DiscordActivities(discord, webhooks.get).notify_discord,
        repo_activities.prepare_repository,
        repo_activities.commit_files,
        repo_activities.run_tests,
        agent_activities.analyse_codebase,
        agent_activities.generate_questions,
        agent_activities.refine_requirements,
        agent_activities.generate_plan,
        agent_activities.implement_changes,
    ]


async def run_worker(settings: Settings, client: Client, stop: asyncio.Event) -> None:
    """Poll the task queue until `stop` is set, then shut down gracefully."""
    async with AsyncExitStack() as stack:
        worker = Worker(
            client,
            task_queue=settings.task_queue,
            workflows=WORKFLOWS,
            activities=build_activities(settings, stack),
            graceful_shutdown_timeout=timedelta(seconds=10),
        )
        log.info(
            "worker polling task queue %s with model %s",
            settings.task_queue,
            settings.resolved_model_provider,
        )
        async with worker:
            await stop.wait()


async def main() -> None:
    """Entry point: run until SIGINT or SIGTERM."""
    configure_logging()
    settings = get_settings()
    client = await connect_temporal(settings)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    await run_worker(settings, client, stop)


if __name__ == "__main__":
    asyncio.run(main())
