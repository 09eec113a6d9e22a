"""Acceptance criteria as tests: written before the code, checked to fail on the original."""

from typing import Any

from langchain_core.language_models import BaseChatModel

from graphs.implementation.criteria.asked_checks import checked_acceptance
from graphs.implementation.criteria.failing_files import failing_sources
from graphs.implementation.criteria.ticket import criteria_path
from graphs.implementation.journal import Journal
from graphs.implementation.prepare import assignment
from graphs.implementation.state import ImplementationState, Tester
from graphs.node_types import AsyncNode
from graphs.schemas import FailedTest, PlannedFile

JOINED_PURPOSE = "Change what the ticket asks where the acceptance tests show it fails."


def joined_files(state: ImplementationState, failures: list[FailedTest]) -> dict[str, Any]:
    """The assignments with the unplanned source files the acceptance tests fail in, and a
    note for each; nothing when they fail only in planned files."""
    assignments = state.get("assignments", [])
    planned = [a["file"].path for a in assignments]
    joined = failing_sources(failures, planned, state["repo_dir"])
    index = state.get("index")
    if not joined or index is None:
        return {}
    added = [
        assignment(
            index,
            state["repo_dir"],
            PlannedFile(path=path, action="modify", purpose=JOINED_PURPOSE),
        )
        for path in joined
    ]
    notes = [f"{path}: joins the revision, the acceptance tests fail in it" for path in joined]
    return {"assignments": [*assignments, *added], "notes": notes}


def make_criteria(
    model: BaseChatModel, tester: Tester | None, journal: Journal, examples: bool = False
) -> AsyncNode[ImplementationState]:
    """The node that, with `examples`, asks the model for the change's checks as data and
    keeps as acceptance tests those that behave on the original code as they declare."""

    async def criteria(state: ImplementationState) -> dict[str, Any]:
        if not examples or tester is None:
            return {}
        path = criteria_path(state["ticket"].key)
        if (state["repo_dir"] / path).exists():
            return {}
        outcome = journal.worker(0, path)
        if outcome is None:
            outcome = await checked_acceptance(model, tester, state, path)
            journal.record_worker(outcome)
        update: dict[str, Any] = {"notes": [outcome.note], "tokens": outcome.tokens}
        if outcome.disputed is not None:
            update["disputed"] = outcome.disputed
        if outcome.change is not None:
            update["files"] = {path: outcome.change}
            update["first_failures"] = outcome.failures
            update.update(joined_files(state, outcome.failures))
        return update

    return criteria
