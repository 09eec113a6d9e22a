"""Recorded histories replay against today's workflows; a changed workflow is caught."""

import json
from datetime import timedelta
from pathlib import Path

import pytest
from temporalio import workflow
from temporalio.client import WorkflowHistory
from temporalio.worker import Replayer
from temporalio.workflow import NondeterminismError

from workflows.graph.messages import GraphInput, GraphResult
from workflows.registry import WORKFLOWS
from workflows.ticket.messages import TicketInput, TicketResult

HERE = Path(__file__).parents[1] / "histories"
WORKFLOW_IDS = json.loads((HERE / "ids.json").read_text())
HISTORIES = sorted(path for path in HERE.glob("*.json") if path.stem in WORKFLOW_IDS)


def load(path: Path) -> WorkflowHistory:
    """A history file as the Replayer takes it, under the id it was recorded with."""
    return WorkflowHistory.from_json(WORKFLOW_IDS[path.stem], path.read_text())


def replayer(workflows: list[type], store: Path) -> Replayer:
    """A replayer with the worker's converter; replayed large payloads go to `store`."""
    # Imported here: the workflow sandbox re-imports this module, and config's imports break it.
    from config import Settings
    from temporal.client import converter_for

    settings = Settings(payload_store_dir=store, _env_file=None)  # type: ignore[call-arg]
    return Replayer(workflows=workflows, data_converter=converter_for(settings))


def test_every_scenario_is_recorded() -> None:
    names = {path.stem for path in HISTORIES}
    tickets = {"happy", "happy-implementation", "tested-implementation", "rejection", "cancel"}
    assert tickets | {"expiry", "progress"} <= names
    assert {"review-merged", "review-closed", "review-expired"} <= names
    assert {"review-ci-once", "review-judged", "untested-criteria", "followup-repeated"} <= names
    assert {"review-notified", "notified-implementation"} <= names  # Discord notices
    # the credential scan holds the implementation's push back until an approver approves it
    assert {"secrets-approved", "secrets-held-implementation"} <= names
    assert "secrets-pushed-implementation" in names
    assert "review-held" in names  # a review round held to its comments pushes nothing
    assert "answered" in names  # an approved plan that answers the question, no pull request
    assert "review-rerun" in names  # a flaky CI job rerun, then its failure fixed
    graphs = {"sequence", "parallel", "conditional-then", "conditional-else", "retry"}
    graphs |= {"error-handler", "wait-approved", "wait-expired", "foreach-loop"}
    assert {f"graph-{name}" for name in graphs} <= names
    assert "cost-capped" in names  # a ticket paused at its cost cap, then raised
    assert "research-retried" in names  # the research graph, steps retried after 500s


@pytest.mark.parametrize("path", HISTORIES, ids=[p.stem for p in HISTORIES])
async def test_history_replays(path: Path, tmp_path: Path) -> None:
    result = await replayer(WORKFLOWS, tmp_path).replay_workflow(load(path))
    assert result.replay_failure is None


@workflow.defn(name="TicketWorkflow")
class ReorderedTicketWorkflow:
    """The ticket workflow with its first step changed, as a careless edit would."""

    @workflow.run
    async def run(self, inp: TicketInput) -> TicketResult:
        await workflow.sleep(timedelta(seconds=1))
        raise AssertionError("never reached on replay")


async def test_changed_workflow_is_caught(tmp_path: Path) -> None:
    happy = next(path for path in HISTORIES if path.stem == "happy")
    with pytest.raises(NondeterminismError):
        await replayer([ReorderedTicketWorkflow], tmp_path).replay_workflow(load(happy))


@workflow.defn(name="GraphWorkflow")
class ReorderedGraphWorkflow:
    """The graph workflow starting with a timer, as a careless edit of the interpreter would."""

    @workflow.run
    async def run(self, inp: GraphInput) -> GraphResult:
        await workflow.sleep(timedelta(seconds=1))
        raise AssertionError("never reached on replay")


async def test_changed_graph_interpreter_is_caught(tmp_path: Path) -> None:
    sequence = next(path for path in HISTORIES if path.stem == "graph-sequence")
    with pytest.raises(NondeterminismError):
        await replayer([ReorderedGraphWorkflow], tmp_path).replay_workflow(load(sequence))
