"""Recorded histories replay on the classes a versioned worker registers: declaring how a workflow
moves between worker versions changes none of its commands."""

from collections.abc import AsyncIterator
from pathlib import Path

from temporalio.client import WorkflowHistory

from tests.replay.test_replay import HISTORIES, load, replayer
from workflows.registry import WORKFLOWS
from workflows.versioning import versioned


async def histories() -> AsyncIterator[WorkflowHistory]:
    for path in HISTORIES:
        yield load(path)


async def test_every_history_replays_on_the_versioned_workflows(tmp_path: Path) -> None:
    workflows = versioned(WORKFLOWS)
    assert not set(workflows) & set(WORKFLOWS)  # each type has its declaring twin
    results = await replayer(workflows, tmp_path).replay_workflows(
        histories(), raise_on_replay_failure=False
    )
    assert results.replay_failures == {}
    assert len(HISTORIES) > 30
