"""The analysis graph: repository scan, stack detection, code index and summary."""

from graphs.analysis.graph import analyse_repository, build_analysis_graph, index_repository
from graphs.analysis.index import CodeIndex, Snippet

__all__ = ["CodeIndex", "Snippet", "analyse_repository", "build_analysis_graph", "index_repository"]
