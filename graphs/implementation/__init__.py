"""The implementation graph: one worker per planned file, in parallel, writing whole files."""

from graphs.implementation.graph import build_implementation_graph, implement_plan

__all__ = ["build_implementation_graph", "implement_plan"]
