"""The implementation graph: supervisor -> one worker per planned file, in parallel -> join.

The tester (runs the project's tests) and the QA review attach after `join`; their revision
loop routes back to `supervisor` with the failures.
"""

from pathlib import Path

from langchain_core.language_models import BaseChatModel
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from graphs.implementation.nodes import fan_out, make_join, make_worker, supervisor
from graphs.implementation.state import ImplementationInput, ImplementationState, WorkerState
from graphs.schemas import Implementation, Plan, Requirements, TicketContext


def build_implementation_graph(model: BaseChatModel) -> CompiledStateGraph:
    """Compile the implementation graph around a chat model."""
    builder = StateGraph(ImplementationState, input_schema=ImplementationInput)
    builder.add_node("supervisor", supervisor)
    builder.add_node("worker", make_worker(model), input_schema=WorkerState)
    builder.add_node("join", make_join(model))
    builder.add_edge(START, "supervisor")
    builder.add_conditional_edges("supervisor", fan_out, ["worker", "join"])
    builder.add_edge("worker", "join")
    builder.add_edge("join", END)
    return builder.compile()


async def implement_plan(
    model: BaseChatModel,
    repo_dir: Path,
    ticket: TicketContext,
    plan: Plan,
    requirements: Requirements | None,
) -> Implementation:
    """The whole new content of every file the plan touches, written by parallel workers."""
    state = await build_implementation_graph(model).ainvoke(
        {"repo_dir": repo_dir, "ticket": ticket, "plan": plan, "requirements": requirements}
    )
    implementation: Implementation = state["implementation"]
    return implementation
