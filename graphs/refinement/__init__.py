"""The refinement graph: clarifying questions and refined requirements."""

from graphs.refinement.graph import build_refinement_graph, generate_questions, refine_requirements

__all__ = ["build_refinement_graph", "generate_questions", "refine_requirements"]
