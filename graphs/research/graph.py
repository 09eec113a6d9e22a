"""The research graph: manager, then the four specialists in parallel, then synthesis.

Run whole in one process (tests, the command line without Temporal) or one agent at a time
(`run_agent`), which is how the Temporal activities run it: the same nodes either way.
"""

from collections.abc import Sequence
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.tools import BaseTool
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from graphs.research.agents import READERS, make_agent
from graphs.research.state import Report, ResearchState

SPECIALISTS = tuple(READERS)


def build_research_graph(model: BaseChatModel, tools: Sequence[BaseTool]) -> CompiledStateGraph:
    """Compile the whole research graph around a model and the tool server's tools."""
    builder = StateGraph(ResearchState)
    builder.add_node("research_manager", make_agent("research_manager", model, tools))
    for name in SPECIALISTS:
        builder.add_node(name, make_agent(name, model, tools))
        builder.add_edge("research_manager", name)
    builder.add_node("synthesis_agent", make_agent("synthesis_agent", model, tools))
    builder.add_edge(START, "research_manager")
    builder.add_edge(list(SPECIALISTS), "synthesis_agent")
    builder.add_edge("synthesis_agent", END)
    return builder.compile()


async def research(model: BaseChatModel, tools: Sequence[BaseTool], question: str) -> Report:
    """Answer a question with the whole graph in this process."""
    state = await build_research_graph(model, tools).ainvoke({"question": question, "findings": []})
    report: Report = state["report"]
    return report


async def run_agent(
    name: str, model: BaseChatModel, tools: Sequence[BaseTool], state: ResearchState
) -> dict[str, Any]:
    """One agent's node on a state: the update it makes (what an activity returns)."""
    return await make_agent(name, model, tools)(state)
