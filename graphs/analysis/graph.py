"""The analysis graph: scan -> detect -> index -> summarise."""

from pathlib import Path

from langchain_core.language_models import BaseChatModel
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from graphs.analysis.index import CodeIndex
from graphs.analysis.instructions import read_instructions
from graphs.analysis.nodes import detect, index, make_summarise, scan, ticket_text
from graphs.analysis.scan import mentioned_files, scan_files, select_files
from graphs.analysis.state import AnalysisInput, AnalysisState
from graphs.offline import is_offline
from graphs.schemas import Analysis, TicketContext
from integrations.environments.detect import detect_environment

MAX_ANALYSIS_FILES = 300
RELEVANT_FILES = 50


def build_analysis_graph(model: BaseChatModel) -> CompiledStateGraph:
    """Compile the analysis graph around a chat model."""
    builder = StateGraph(AnalysisState, input_schema=AnalysisInput)
    builder.add_node("scan", scan)
    builder.add_node("detect", detect)
    builder.add_node("index", index)
    builder.add_node("summarise", make_summarise(model))
    builder.add_edge(START, "scan")
    builder.add_edge("scan", "detect")
    builder.add_edge("detect", "index")
    builder.add_edge("index", "summarise")
    builder.add_edge("summarise", END)
    return builder.compile()


def index_repository(repo_dir: Path) -> CodeIndex:
    """A keyword index over a repository, for `context_query` outside the graph."""
    return CodeIndex.build(repo_dir, scan_files(repo_dir))


async def analyse_repository(
    model: BaseChatModel, repo_dir: Path, ticket: TicketContext
) -> Analysis:
    """Scan, index and summarise a repository for a ticket."""
    state = await build_analysis_graph(model).ainvoke({"repo_dir": repo_dir, "ticket": ticket})
    files: list[str] = state["files"]
    query = ticket_text(ticket)
    relevant = mentioned_files(query, files) + [
        s.path for s in state["index"].context_query(query, k=RELEVANT_FILES)
    ]
    instructions = read_instructions(repo_dir)
    return Analysis(
        instructions=instructions.text,
        instruction_files=instructions.sources,
        summary=state["summary"],
        languages=state["languages"],
        frameworks=state["frameworks"],
        test_command=state["test_command"],
        files=select_files(files, relevant, MAX_ANALYSIS_FILES),
        environment=detect_environment(repo_dir).describe(),
        produced_offline=is_offline(model),
        tokens=state.get("tokens", 0),
    )
