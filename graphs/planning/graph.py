"""The planning graph: draft -> finalise (check paths, render markdown)."""

from langchain_core.language_models import BaseChatModel
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from graphs.planning.nodes import make_draft, make_finalise
from graphs.planning.state import PlanningInput, PlanningState
from graphs.schemas import Analysis, Plan, Requirements, TicketContext


def build_planning_graph(model: BaseChatModel) -> CompiledStateGraph:
    """Compile the planning graph around a chat model."""
    builder = StateGraph(PlanningState, input_schema=PlanningInput)
    builder.add_node("draft", make_draft(model))
    builder.add_node("finalise", make_finalise(model))
    builder.add_edge(START, "draft")
    builder.add_edge("draft", "finalise")
    builder.add_edge("finalise", END)
    return builder.compile()


async def create_plan(
    model: BaseChatModel,
    ticket: TicketContext,
    analysis: Analysis,
    requirements: Requirements | None,
    feedback: list[str],
    version: int,
) -> Plan:
    """A versioned plan for the ticket, revised for the reviewers' feedback when given."""
    state = await build_planning_graph(model).ainvoke(
        {
            "ticket": ticket,
            "analysis": analysis,
            "requirements": requirements,
            "feedback": feedback,
            "version": version,
        }
    )
    plan: Plan = state["plan"]
    return plan
