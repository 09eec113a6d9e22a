"""The analysis graph: repository scan, stack detection, code index, summary, context_query."""

from graphs.analysis.graph import analyse_repository, build_analysis_graph, index_repository
from graphs.analysis.index import CodeIndex, Snippet
from graphs.analysis.tools import (
    CONTEXT_QUERY,
    FIND_DEFINITION,
    make_context_query_tool,
    make_find_definition_tool,
)

__all__ = [
    "CONTEXT_QUERY",
    "FIND_DEFINITION",
    "CodeIndex",
    "Snippet",
    "analyse_repository",
    "build_analysis_graph",
    "index_repository",
    "make_context_query_tool",
    "make_find_definition_tool",
]
