"""Starting the research graph on GraphWorkflow: one workflow per question while it runs."""

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from temporalio.client import Client, WorkflowExecutionStatus, WorkflowHandle
from temporalio.common import WorkflowIDConflictPolicy, WorkflowIDReusePolicy

from config import CommandLineSettings
from graphs.dsl.catalog import agent_queues
from graphs.dsl.loader import DEFINITIONS_DIR, load_definition
from tickets.launch import describe
from workflows.graph.messages import GraphInput, GraphResult
from workflows.graph.workflow import GraphWorkflow

DEFINITION = DEFINITIONS_DIR / "research.yaml"
MAX_QUESTION = 2000


@dataclass(frozen=True)
class Started:
    """The research workflow and whether it was already running (a duplicate start)."""

    handle: WorkflowHandle[GraphWorkflow, GraphResult]
    attached: bool


def research_id(question: str) -> str:
    """The task id of a question: the same question while it runs is the same workflow."""
    normal = " ".join(question.split()).casefold()
    slug = re.sub(r"[^a-z0-9]+", "-", normal).strip("-")[:40].strip("-") or "question"
    return f"research-{slug}-{hashlib.sha256(normal.encode()).hexdigest()[:10]}"


def check_question(question: str) -> str:
    """The question, tidied, or ValueError saying what is wrong with it."""
    tidy = " ".join(question.split())
    if not tidy:
        raise ValueError("the question is empty; ask something like 'What blocks PAY-1?'")
    if len(tidy) > MAX_QUESTION:
        raise ValueError(f"the question has {len(tidy)} characters; keep it under {MAX_QUESTION}")
    return tidy


async def start_research(
    client: Client,
    settings: CommandLineSettings,
    question: str,
    workflow_id: str | None = None,
    definition: Path = DEFINITION,
) -> Started:
    """Start the research graph for a question, or attach to the run already under way."""
    question = check_question(question)
    wf_id = workflow_id or research_id(question)
    existing = await describe(client.get_workflow_handle(wf_id))
    if existing and existing.status == WorkflowExecutionStatus.RUNNING:
        return Started(client.get_workflow_handle_for(GraphWorkflow.run, wf_id), attached=True)
    handle = await client.start_workflow(
        GraphWorkflow.run,
        GraphInput(
            definition=load_definition(definition),
            inputs={"question": question},
            agent_queues=agent_queues(settings.task_queue, settings.agent_task_queue),
        ),
        id=wf_id,
        task_queue=settings.task_queue,
        # A start racing another with the same id joins it: one workflow per question at a time.
        id_conflict_policy=WorkflowIDConflictPolicy.USE_EXISTING,
        id_reuse_policy=WorkflowIDReusePolicy.ALLOW_DUPLICATE,
        static_summary=f"research: {question[:180]}",
    )
    return Started(handle, attached=False)
