"""The planning graph: an architect's plan for a ticket, rendered as markdown."""

from graphs.planning.graph import build_planning_graph, create_plan
from graphs.planning.render import render_plan_markdown

__all__ = ["build_planning_graph", "create_plan", "render_plan_markdown"]
