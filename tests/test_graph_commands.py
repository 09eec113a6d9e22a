"""The graph commands' checks and output, without a server."""

from datetime import UTC, datetime
from pathlib import Path

import pytest

from activities.pricing import cost_of
from cli.commands import CommandError
from cli.graphs.listing import is_graph_id, render_runs
from cli.graphs.runs import checked_definition, render_graph_status
from vocabulary.prices import parse_prices
from workflows.graph.messages import GraphStatus, GraphStatusValue, StepRecord


def test_unknown_agent_is_refused_before_starting(tmp_path: Path) -> None:
    path = tmp_path / "ghost.yaml"
    path.write_text("name: ghost\nsteps:\n  - {name: haunt, agent: poltergeist}\n")
    with pytest.raises(CommandError) as refused:
        checked_definition(str(path))
    assert "step 'haunt' at steps[0], field 'agent': 'poltergeist' is not a registered agent" in (
        str(refused.value)
    )


def test_shipped_definitions_pass_the_registry() -> None:
    assert checked_definition("mvp").name == "mvp"
    assert checked_definition("triage").inputs == ["ticket", "project"]
    assert is_graph_id("graph-mvp-1") and not is_graph_id("DEMO-1")


def test_status_and_list_rendering() -> None:
    at = datetime(2026, 1, 2, 3, 4, tzinfo=UTC)
    status = GraphStatus(
        name="triage",
        status=GraphStatusValue.AWAITING_INPUT,
        message="Start work?",
        checkpoints=["triggered"],
        waiting_for="approval",
        steps=[StepRecord(step="trigger", kind="agent", status="completed", started_at=at)],
        tokens=5,
        cost=cost_of(
            "gpt-4o-mini", 4, 1, parse_prices('{"gpt-4o-mini": {"input": 1000, "output": 2000}}')
        ),
    )
    assert render_graph_status(status, "LINK").splitlines() == [
        "triage: awaiting_input",
        "  Start work?",
        "  checkpoints: triggered",
        "  waiting for input 'approval'",
        "  step trigger (agent): completed",
        "  model tokens: 5 (4 in / 1 out)",
        "  cost: $0.0060",
        "  LINK",
    ]
    rows = [{"key": "graph-triage-1", "status": "completed", "phase": "decided", "started": "x"}]
    assert render_runs(rows).splitlines()[1].split() == [
        "graph-triage-1",
        "completed",
        "decided",
        "x",
    ]
