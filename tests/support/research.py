"""The research graph for tests: a dev server, the tool server and a worker with the agents."""

import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from langchain_core.language_models import BaseChatModel
from temporalio.api.enums.v1 import EventType
from temporalio.client import Client, WorkflowHandle
from temporalio.worker import Worker

from activities.research.agents import ResearchActivities
from config import Settings
from graphs.research.accuracy import FactSheet
from graphs.research.state import Report
from toolserver.documents import CORPUS
from workflows.graph.workflow import GraphWorkflow

FACTS = FactSheet.from_file(CORPUS / "facts.json")
SEARCH_ATTRIBUTES = ("TicketKey", "Phase", "Status", "Project")


@dataclass
class ResearchWorker:
    """A worker running GraphWorkflow and the research agents on its own task queue."""

    client: Client
    settings: Settings


@asynccontextmanager
async def research_worker(
    client: Client, toolserver_url: str, model: BaseChatModel, data: Path
) -> AsyncIterator[ResearchWorker]:
    """A worker for the research graph with the given model, on a fresh task queue."""
    queue = f"research-{uuid.uuid4()}"
    settings = Settings(task_queue=queue, toolserver_url=toolserver_url, data_dir=data)
    agents = ResearchActivities(model, toolserver_url)
    async with Worker(
        client,
        task_queue=queue,
        workflows=[GraphWorkflow],
        activities=agents.all(),
        max_concurrent_activities=40,
    ):
        yield ResearchWorker(client, settings)


def report_of(result: Any) -> Report:
    """The report in a research graph's result."""
    return Report.model_validate(result.state["synthesis"]["result"])


async def retried_attempts(handle: WorkflowHandle[Any, Any]) -> list[tuple[str, int, str]]:
    """(activity type, attempt, last failure) of every activity that needed more than one try."""
    scheduled: dict[int, str] = {}
    retried = []
    async for event in handle.fetch_history_events():
        if event.event_type == EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED:
            attrs = event.activity_task_scheduled_event_attributes
            scheduled[event.event_id] = attrs.activity_type.name
        if event.event_type == EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED:
            attrs = event.activity_task_started_event_attributes
            if attrs.attempt > 1:
                name = scheduled[attrs.scheduled_event_id]
                retried.append((name, attrs.attempt, attrs.last_failure.message))
    return retried
