"""The same activity calls as a plain LangGraph pipeline: no Temporal, a SQLite checkpointer.

Each recorded call becomes one node that runs the real activity function in an activity
context of its own (`ActivityEnvironment`); the nodes run in sequence and LangGraph saves a
checkpoint after each, as an application without Temporal would.
"""

import asyncio
import contextvars
import operator
from collections.abc import Callable, Sequence
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Annotated, Any, TypedDict, cast

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver
from langgraph.graph import END, START, StateGraph
from pydantic import BaseModel
from temporalio.activity import _Definition
from temporalio.client import Client
from temporalio.testing import ActivityEnvironment

from bench.support.histories import Call
from config import Settings
from worker import build_activities


class PipelineState(TypedDict):
    """What each step returned, as JSON, in order."""

    results: Annotated[list[str], operator.add]


def activities_by_name(settings: Settings, stack: AsyncExitStack) -> dict[str, Callable[..., Any]]:
    """The worker's activity functions, bound to clients built from `settings`, by type name."""
    built = build_activities(settings, stack)
    return {
        str(_Definition.must_from_callable(f).name): f for f in [*built.services, *built.agents]
    }


async def decoded(
    client: Client, calls: Sequence[Call], functions: dict[str, Callable[..., Any]]
) -> list[tuple[str, Callable[..., Any], Any]]:
    """Each call's function and its input decoded to the type the function takes."""
    steps = []
    for call in calls:
        fn = functions[call.name]
        types = _Definition.must_from_callable(fn).arg_types
        (arg,) = await client.data_converter.decode(call.payloads, types)
        steps.append((call.name, fn, arg))
    return steps


def build_pipeline(steps: list[tuple[str, Callable[..., Any], Any]]) -> StateGraph:
    """One node per step, in a line."""
    graph = StateGraph(PipelineState)
    previous = START
    for number, (name, fn, arg) in enumerate(steps):

        async def node(state: PipelineState, fn: Any = fn, arg: Any = arg) -> dict[str, Any]:
            # A fresh context: the step's own graphs must not inherit this graph's checkpointer.
            step = ActivityEnvironment().run(fn, arg)
            result = await asyncio.create_task(step, context=contextvars.Context())
            text = result.model_dump_json() if isinstance(result, BaseModel) else str(result)
            return {"results": [text]}

        node_name = f"{number:02d}_{name}"
        graph.add_node(node_name, node)
        graph.add_edge(previous, node_name)
        previous = node_name
    graph.add_edge(previous, END)
    return graph


async def run_pipeline(graph: StateGraph, database: Path, thread_id: str) -> PipelineState:
    """Run the pipeline once with a SQLite checkpointer."""
    async with AsyncSqliteSaver.from_conn_string(str(database)) as saver:
        compiled = graph.compile(checkpointer=saver)
        config: RunnableConfig = {"configurable": {"thread_id": thread_id}}
        result = await compiled.ainvoke(PipelineState(results=[]), config)
        return cast(PipelineState, result)
