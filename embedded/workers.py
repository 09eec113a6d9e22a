"""The embedded stack's workers: one or more `worker.py` processes, each as if on its own machine.

Several workers each get their own data directory (workspaces, environments) and metrics
port, and share the stack's payload store, as the replicas of Compose's `worker` service do.
"""

from pathlib import Path
from typing import Any

from config import Settings

WORKERS_DIR = "workers"


def check_worker_count(count: int) -> int:
    """The number of workers, refused when below one."""
    if count < 1:
        raise ValueError(f"the stack needs at least one worker, not {count}")
    return count


def worker_names(count: int) -> list[str]:
    """The workers' service names: `worker` alone (its log stays worker.log), else worker-<n>."""
    if check_worker_count(count) == 1:
        return ["worker"]
    return [f"worker-{n}" for n in range(1, count + 1)]


def worker_number(name: str) -> int:
    """1 for `worker`, n for `worker-<n>`."""
    return int(name.rsplit("-", 1)[1]) if "-" in name else 1


def worker_data_dir(settings: Settings, name: str, count: int) -> Path:
    """Where one worker keeps its workspaces and environments: its own folder among several."""
    if count == 1:
        return settings.data_dir
    return settings.data_dir / WORKERS_DIR / str(worker_number(name))


def worker_metrics_port(settings: Settings, name: str) -> int:
    """One worker's metrics port: the setting's, plus one per worker before it (0: off)."""
    if not settings.metrics_port:
        return 0
    return settings.metrics_port + worker_number(name) - 1


def worker_env(settings: Settings, name: str, count: int) -> dict[str, str]:
    """What one worker's environment adds to the stack's (its payload store stays shared)."""
    if count == 1:
        return {}
    return {
        "TICKETSMITH_DATA_DIR": str(worker_data_dir(settings, name, count)),
        "TICKETSMITH_PAYLOAD_STORE_DIR": str(settings.payload_store_path),
        "TICKETSMITH_METRICS_PORT": str(worker_metrics_port(settings, name)),
    }


async def polls_as(client: Any, settings: Settings, pid: int) -> bool:
    """Whether the worker process `pid` polls the task queue (pollers are named `<pid>@<host>`)."""
    from temporalio.api.enums.v1 import TaskQueueType
    from temporalio.api.taskqueue.v1 import TaskQueue
    from temporalio.api.workflowservice.v1 import DescribeTaskQueueRequest

    response = await client.workflow_service.describe_task_queue(
        DescribeTaskQueueRequest(
            namespace=settings.temporal_namespace,
            task_queue=TaskQueue(name=settings.task_queue),
            task_queue_type=TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW,
        )
    )
    return any(poller.identity.startswith(f"{pid}@") for poller in response.pollers)
