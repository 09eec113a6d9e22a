"""The minutes for revisions and the ticket's time for work: once spent, no revision starts
and the best one goes out."""

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import BaseMessage

from activities.agents import FINISH_RESERVE_S, seconds_until
from graphs.implementation.budget import Budget
from graphs.implementation.graph import build_implementation_graph
from graphs.models import ScriptedChatModel
from graphs.schemas import Implementation, TicketContext
from harness.local_tester import LocalTester
from tests.graphs.test_implementation_loop import (
    ADD,
    BAD_OPS,
    GOOD_OPS,
    NEW_TESTS,
    OPS,
    TESTS,
    Reply,
    file_answer,
    plan_for,
    tasks_of,
    team,
    verdict,
    without_contracts,
)
from workflows.ticket.waits import work_ends_at


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


async def never_passing(
    tiny_repo: Path, ticket: TicketContext, monkeypatch: pytest.MonkeyPatch, **options: Any
) -> tuple[Implementation, ScriptedChatModel, Clock]:
    """A run whose every model call takes a minute and whose QA never passes."""
    clock = Clock()
    monkeypatch.setattr("graphs.implementation.budget.monotonic", clock)

    def handle(task: str, inputs: dict[str, Any], messages: list[BaseMessage]) -> Reply:
        clock.now += 60
        if task == "review":
            return verdict(False, (OPS, "Still wrong."))
        return file_answer(OPS, ADD + f"\n\nVERSION = {inputs['revision']}\n")

    model = team(handle)
    graph = build_implementation_graph(model, max_revisions=15, **options)
    state = await graph.ainvoke(
        # no contract: a file without the contract's function would be asked for it alone
        {
            "repo_dir": tiny_repo,
            "ticket": ticket,
            "plan": without_contracts(OPS),
            "requirements": None,
        },
        {"recursion_limit": 100},
    )
    return state["implementation"], model, clock


async def test_no_revision_starts_once_the_minutes_are_spent(
    tiny_repo: Path, ticket: TicketContext, monkeypatch: pytest.MonkeyPatch
) -> None:
    result, model, _ = await never_passing(tiny_repo, ticket, monkeypatch, minutes=5)
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
        # no contract: a file without the contract's function would be asked for it alone
        {
            "repo_dir": tiny_repo,
            "ticket": ticket,
            "plan": without_contracts(OPS),
            "requirements": None,
        },
        {"recursion_limit": 100},
    )
    result = state["implementation"]
    assert result.revisions == 1 and result.changes == []  # stopped: no file changed
    assert "minutes for revisions ran out" not in result.notes


def test_no_revision_starts_that_would_end_past_the_time_for_work() -> None:
    clock = Clock()
    budget = Budget(None, clock, seconds_left=600)
    assert not budget.spent()  # no revision yet: the first one always starts
    budget.revision_began()
    clock.now = 250.0  # a revision of 250 s ends; another would end at 500 s
    assert not budget.spent() and not budget.over()
    budget.revision_began()
    clock.now = 350.0  # this one took 100 s; another ends at 450 s, still in time
    assert not budget.spent()
    budget.revision_began()
    clock.now = 560.0  # 210 s: another would end at 770 s, past the 600
    assert budget.spent() and not budget.over()
    assert "the ticket's time for work would run out" in budget.note(3)
    clock.now = 600.0
    assert budget.over()


def test_the_minutes_for_revisions_still_end_a_run_with_time_for_work_left() -> None:
    clock = Clock()
    budget = Budget(2, clock, seconds_left=3600)
    budget.revision_began()
    clock.now = 130.0
    assert budget.spent()
    assert budget.note(1) == "Stopped after revision 1: the 2 minutes for revisions ran out."


async def test_a_run_with_little_time_for_work_ends_after_one_unreviewed_revision(
    tiny_repo: Path, ticket: TicketContext, monkeypatch: pytest.MonkeyPatch
) -> None:
    result, model, _ = await never_passing(
        tiny_repo, ticket, monkeypatch, minutes=30, seconds_left=45
    )
    assert result.revisions == 1 and "review" not in tasks_of(model), tasks_of(model)
    assert result.changes[0].content.endswith("VERSION = 1\n")
    assert "the ticket's time for work would run out" in result.notes


async def test_revisions_stop_while_the_next_one_still_fits(
    tiny_repo: Path, ticket: TicketContext, monkeypatch: pytest.MonkeyPatch
) -> None:
    # each revision is two calls (two minutes): a third would end at 6 min, past the 5
    result, model, clock = await never_passing(tiny_repo, ticket, monkeypatch, seconds_left=300)
    assert result.revisions == 2, tasks_of(model)
    assert tasks_of(model).count("review") == 2
    assert clock.now <= 300


async def failing_then_fixed(
    tiny_repo: Path, ticket: TicketContext, tmp_path: Path, clock: Clock, **options: Any
) -> tuple[Implementation, ScriptedChatModel]:
    """A run with real tests that fail on revision 1 and pass on revision 2; each model call
    takes a minute, and QA passes whatever it is shown."""

    def handle(task: str, inputs: dict[str, Any], messages: list[BaseMessage]) -> Reply:
        clock.now += 60
        if task == "review":
            return verdict(True)
        if inputs["path"] == TESTS:
            return file_answer(TESTS, NEW_TESTS)
        return file_answer(OPS, BAD_OPS if inputs["revision"] == 1 else GOOD_OPS)

    model = team(handle)
    tester = LocalTester(tiny_repo, tmp_path / "runs", "python -m pytest -q")
    graph = build_implementation_graph(model, tester=tester, max_revisions=5, **options)
    state = await graph.ainvoke(
        {
            "repo_dir": tiny_repo,
            "ticket": ticket,
            "plan": plan_for(OPS, TESTS),
            "requirements": None,
        },
        {"recursion_limit": 100},
    )
    return state["implementation"], model


async def test_a_failing_revision_skips_the_model_review_that_would_cost_the_next_one(
    tiny_repo: Path, ticket: TicketContext, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = Clock()
    monkeypatch.setattr("graphs.implementation.budget.monotonic", clock)
    # revision 1 writes two files (2 min) and fails its tests: a review (1 min) and another
    # revision (3 min) would end at 6 min, past the 5; without the review, revision 2 fits
    result, model = await failing_then_fixed(tiny_repo, ticket, tmp_path, clock, seconds_left=300)
    assert result.revisions == 2 and result.tests_passed, tasks_of(model)
    assert tasks_of(model).count("review") == 1  # revision 2's, whose tests pass


async def test_without_a_time_for_work_every_revision_is_reviewed(
    tiny_repo: Path, ticket: TicketContext, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = Clock()
    monkeypatch.setattr("graphs.implementation.budget.monotonic", clock)
    result, model = await failing_then_fixed(tiny_repo, ticket, tmp_path, clock)
    assert result.revisions == 2 and result.tests_passed
    assert tasks_of(model).count("review") == 2


async def test_without_review_failing_only_a_passing_revision_goes_to_the_model(
    tiny_repo: Path, ticket: TicketContext, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = Clock()
    monkeypatch.setattr("graphs.implementation.budget.monotonic", clock)
    result, model = await failing_then_fixed(
        tiny_repo, ticket, tmp_path, clock, review_failing=False
    )
    assert result.revisions == 2 and result.tests_passed, tasks_of(model)
    assert tasks_of(model).count("review") == 1  # revision 2's, whose tests pass


def test_a_review_is_rushed_when_it_and_another_revision_would_pass_the_end() -> None:
    clock = Clock()
    budget = Budget(None, clock, seconds_left=600)
    assert not budget.rushed()  # no revision under way
    budget.revision_began()
    clock.now = 150.0  # a review and another revision: about 300 s more, ends at 450
    assert not budget.rushed()
    clock.now = 220.0  # ends at 660, past the 600
    assert budget.rushed() and not budget.spent()
    assert not Budget(None, clock).rushed()


def test_the_work_ends_the_minutes_after_the_start_less_the_waits() -> None:
    started = datetime(2026, 11, 27, 9, 0, tzinfo=UTC)
    now = started + timedelta(hours=3, minutes=4)  # 3 hours waited, 4 minutes worked
    ends = work_ends_at(10, started, now, timedelta(hours=3))
    assert ends == now + timedelta(minutes=6)


def test_the_loop_keeps_half_a_minute_for_the_steps_after_it() -> None:
    assert seconds_until(None) is None
    left = seconds_until(datetime.now(UTC) + timedelta(minutes=5))
    assert left is not None and 300 - FINISH_RESERVE_S - 5 < left <= 300 - FINISH_RESERVE_S
