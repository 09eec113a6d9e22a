"""The planning graph: gather related code -> triage (a question needing no change?) ->
draft -> locate (where its functions are defined) -> finalise (check paths, render)."""

from collections.abc import Sequence

from langchain_core.language_models import BaseChatModel
from langchain_core.tools import BaseTool
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from graphs.planning.nodes import make_draft, make_finalise, make_gather, make_locate
from graphs.planning.state import PlanningInput, PlanningState
from graphs.planning.triage import after_triage, make_triage
from graphs.schemas import Analysis, Plan, Requirements, TicketContext


def build_planning_graph(
    model: BaseChatModel, tools: Sequence[BaseTool] = ()
) -> CompiledStateGraph:
    """Compile the planning graph around a chat model (and `context_query`, when given)."""
    builder = StateGraph(PlanningState, input_schema=PlanningInput)
    builder.add_node("gather", make_gather(tools))
    builder.add_node("triage", make_triage(model))
    builder.add_node("draft", make_draft(model))
    builder.add_node("locate", make_locate(tools))
    builder.add_node("finalise", make_finalise(model))
    builder.add_edge(START, "gather")
    builder.add_edge("gather", "triage")
    builder.add_conditional_edges("triage", after_triage, ["draft", "finalise"])
    builder.add_edge("draft", "locate")
    builder.add_edge("locate", "finalise")
    builder.add_edge("finalise", END)
    return builder.compile()


async def create_plan(
    model: BaseChatModel,
    ticket: TicketContext,
    analysis: Analysis,
    requirements: Requirements | None,
    feedback: list[str],
    version: int,
    previous: Plan | None = None,
    *,
    tools: Sequence[BaseTool] = (),
) -> Plan:
    """A versioned plan for the ticket, revised for the reviewers' feedback when given.

    With the `previous` version, the plan says what changed since it.
    """
    state = await build_planning_graph(model, tools).ainvoke(
        {
            "ticket": ticket,
            "analysis": analysis,
            "requirements": requirements,
            "feedback": feedback,
            "version": version,
            "previous": previous,
        }
    )
    plan: Plan = state["plan"]
    return plan
