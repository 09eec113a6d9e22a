"""The minutes for revisions: once spent, no revision starts and the best one goes out."""

from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import BaseMessage

from graphs.implementation.budget import Budget
from graphs.implementation.graph import build_implementation_graph
from graphs.schemas import TicketContext
from tests.graphs.test_implementation_loop import (
    ADD,
    OPS,
    Reply,
    file_answer,
    plan_for,
    tasks_of,
    team,
    verdict,
)


class Clock:
    """A clock the test moves: each model call takes a minute."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_budget_is_spent_when_its_minutes_have_passed() -> None:
    clock = Clock()
    budget = Budget(2, clock)
    assert not budget.spent()
    clock.now = 119.0
    assert not budget.spent()
    clock.now = 120.0
    assert budget.spent()
    assert not Budget(None, clock).spent()
    with pytest.raises(ValueError, match="more than 0"):
        Budget(0, clock)


async def test_no_revision_starts_once_the_minutes_are_spent(
    tiny_repo: Path, ticket: TicketContext, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = Clock()
    monkeypatch.setattr("graphs.implementation.budget.monotonic", clock)

    def handle(task: str, inputs: dict[str, Any], messages: list[BaseMessage]) -> Reply:
        clock.now += 60
        if task == "review":
            return verdict(False, (OPS, "Still wrong."))
        return file_answer(OPS, ADD + f"\n\nVERSION = {inputs['revision']}\n")

    model = team(handle)
    graph = build_implementation_graph(model, max_revisions=15, minutes=5)
    state = await graph.ainvoke(
        {"repo_dir": tiny_repo, "ticket": ticket, "plan": plan_for(OPS), "requirements": None},
        {"recursion_limit": 100},
    )
    result = state["implementation"]
    # revisions 1 and 2 take two minutes each; the fifth minute passes in revision 3
    assert result.revisions == 3, tasks_of(model)
    assert "Stopped after revision 3: the 5 minutes for revisions ran out." in result.notes
    assert result.changes[0].content.endswith("VERSION = 3\n")


async def test_a_run_that_stopped_changing_does_not_blame_the_time(
    tiny_repo: Path, ticket: TicketContext, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = Clock()
    monkeypatch.setattr("graphs.implementation.budget.monotonic", clock)
    original = (tiny_repo / OPS).read_text()

    def handle(task: str, inputs: dict[str, Any], messages: list[BaseMessage]) -> Reply:
        clock.now += 60
        return file_answer(OPS, original)  # the file as it was, every time

    graph = build_implementation_graph(team(handle), max_revisions=15, minutes=1)
    state = await graph.ainvoke(
        {"repo_dir": tiny_repo, "ticket": ticket, "plan": plan_for(OPS), "requirements": None},
        {"recursion_limit": 100},
    )
    result = state["implementation"]
    assert result.revisions == 1 and result.changes == []  # stopped: no file changed
    assert "minutes for revisions ran out" not in result.notes
