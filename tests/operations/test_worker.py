"""The worker's task queues, concurrency limits and graceful shutdown."""

import asyncio
import uuid
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from datetime import timedelta

from temporalio import activity, workflow
from temporalio.testing import WorkflowEnvironment

with workflow.unsafe.imports_passed_through():  # the sandbox re-imports this module
    from config import Settings
    from worker import (
        ActivitySets,
        build_activities,
        build_workers,
        own_secrets,
        run_workers,
        secret_values,
    )


@dataclass
class Progress:
    """What the slow activity got to do."""

    started: asyncio.Event = field(default_factory=asyncio.Event)
    outcomes: list[str] = field(default_factory=list)


PROGRESS = Progress()


@activity.defn
async def slow_step(seconds: float) -> str:
    """Takes its time; records whether it finished or was cancelled."""
    PROGRESS.started.set()
    try:
        await asyncio.sleep(seconds)
    except asyncio.CancelledError:
        PROGRESS.outcomes.append("cancelled")
        raise
    PROGRESS.outcomes.append("finished")
    return "done"


@workflow.defn
class SlowWorkflow:
    """Runs the slow step once."""

    @workflow.run
    async def run(self, seconds: float) -> str:
        return await workflow.execute_activity(
            slow_step, seconds, start_to_close_timeout=timedelta(minutes=1)
        )


def settings(queue: str, grace: float) -> Settings:
    """Settings for one test's task queues."""
    return Settings(
        task_queue=queue,
        agent_task_queue=f"{queue}-agents",
        max_concurrent_http_activities=7,
        max_concurrent_agent_activities=1,
        graceful_shutdown_seconds=grace,
    )


async def shutdown_during_step(env: WorkflowEnvironment, seconds: float, grace: float) -> None:
    """Start the slow step, stop the workers while it runs, wait for them to stop."""
    global PROGRESS
    PROGRESS = Progress()
    queue = f"shutdown-{uuid.uuid4()}"
    workers = build_workers(
        env.client, settings(queue, grace), ActivitySets([slow_step], []), [SlowWorkflow]
    )
    stop = asyncio.Event()
    running = asyncio.create_task(run_workers(workers, stop))
    handle = await env.client.start_workflow(SlowWorkflow.run, seconds, id=queue, task_queue=queue)
    await asyncio.wait_for(PROGRESS.started.wait(), 30)
    stop.set()
    await asyncio.wait_for(running, 30)
    await handle.terminate("test over")


async def test_running_activities_finish_within_the_grace_period(
    dev_server: WorkflowEnvironment,
) -> None:
    await shutdown_during_step(dev_server, seconds=0.5, grace=10)
    assert PROGRESS.outcomes == ["finished"]


async def test_activities_past_the_grace_period_are_cancelled(
    dev_server: WorkflowEnvironment,
) -> None:
    await shutdown_during_step(dev_server, seconds=30, grace=0.2)
    assert PROGRESS.outcomes == ["cancelled"]


async def test_agents_get_their_own_queue_and_limit(dev_server: WorkflowEnvironment) -> None:
    queue = f"queues-{uuid.uuid4()}"
    async with AsyncExitStack() as stack:
        activities = build_activities(settings(queue, 1), stack)
        main, agents = build_workers(dev_server.client, settings(queue, 1), activities)
    assert (main.task_queue, agents.task_queue) == (queue, f"{queue}-agents")
    assert main.config()["max_concurrent_activities"] == 7
    assert agents.config()["max_concurrent_activities"] == 1
    assert agents.config()["max_heartbeat_throttle_interval"] == timedelta(seconds=2)
    agent_names = {a.__name__ for a in activities.agents}
    assert {"generate_plan", "implement_changes"} <= agent_names
    assert {a.__name__ for a in agents.config()["activities"]} == agent_names
    assert not agent_names & {a.__name__ for a in activities.services}
    one_queue = settings(f"{queue}-one", 1)
    one_queue.agent_task_queue = one_queue.task_queue
    assert len(build_workers(dev_server.client, one_queue, activities)) == 1


def test_secrets_are_collected_for_redaction() -> None:
    values = secret_values(Settings(jira_token="j-secret", github_token="g-secret"))  # type: ignore[arg-type]
    assert {"j-secret", "g-secret"} <= set(values)


def test_the_worker_never_publishes_its_own_secrets() -> None:
    settings = Settings(
        github_token="gh-token-of-the-worker",
        jira_token="jira-token-of-the-worker",
        webhook_secret="webhook-secret-of-the-worker",
        encryption_keys="k1=c2VjcmV0LWtleS1vbmUtMTIzNDU2Nzg5MA==,k0=b2xkLWtleS0xMjM0NTY3ODkw",
        openai_api_key="openai-key-of-the-worker",
        _env_file=None,
    )
    webhooks = {"DEMO": "https://discord.test/api/webhooks/1/discord-hook-token", "OPS": None}
    finder = own_secrets(settings, webhooks)
    values = [
        "gh-token-of-the-worker",
        "jira-token-of-the-worker",
        "webhook-secret-of-the-worker",
        "b2xkLWtleS0xMjM0NTY3ODkw",
        "openai-key-of-the-worker",
        "discord-hook-token",
        "eC1hY2Nlc3MtdG9rZW46Z2gtdG9rZW4tb2YtdGhlLXdvcmtlcg==",  # git's Basic credentials
    ]
    for value in values:
        redacted = finder.redact(f"it said {value}.")
        assert value not in redacted and redacted.startswith("it said [redacted: "), value
    assert finder.redact("it said discord-hook-token") == (
        "it said [redacted: the Discord webhook of DEMO]"
    )
