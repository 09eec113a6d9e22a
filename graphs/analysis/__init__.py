"""The analysis graph: repository scan, stack detection, code index, summary, context_query."""

from graphs.analysis.graph import analyse_repository, build_analysis_graph, index_repository
from graphs.analysis.index import CodeIndex, Snippet
from graphs.analysis.tools import CONTEXT_QUERY, make_context_query_tool

__all__ = [
    "CONTEXT_QUERY",
    "CodeIndex",
    "Snippet",
    "analyse_repository",
    "build_analysis_graph",
    "index_repository",
    "make_context_query_tool",
]
