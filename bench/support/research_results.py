"""Reading research runs' results: completion, failures, handoffs, retries, report accuracy."""

import statistics
from typing import Any

from temporalio.client import WorkflowFailureError

from graphs.research.accuracy import FactSheet, score
from graphs.research.state import Report
from toolserver.documents import CORPUS
from workflows.graph.messages import GraphResult, GraphStatusValue

FACTS = FactSheet.from_file(CORPUS / "facts.json")


def handoffs(results: list[Any]) -> list[float]:
    """Every step's handoff (end of the step it waited for to its start), in seconds."""
    found = []
    for result in results:
        if isinstance(result, GraphResult):
            for value in result.state.values():
                if isinstance(value, dict) and value.get("handoff_seconds") is not None:
                    found.append(float(value["handoff_seconds"]))
    return found


def retries(results: list[Any]) -> int:
    """Attempts beyond the first, over every step of every run."""
    return sum(
        int(value.get("attempt", 1)) - 1
        for result in results if isinstance(result, GraphResult)
        for value in result.state.values() if isinstance(value, dict) and "attempt" in value
    )  # fmt: skip


def accuracy(results: list[Any]) -> float:
    """Mean share of the corpus facts the reports state with a right citation."""
    shares = [
        score(Report.model_validate(r.state["synthesis"]["result"]), FACTS).share
        for r in results if isinstance(r, GraphResult) and r.status == GraphStatusValue.COMPLETED
    ]  # fmt: skip
    return statistics.mean(shares) if shares else 0.0


def completed(results: list[Any]) -> int:
    return sum(
        isinstance(r, GraphResult) and r.status == GraphStatusValue.COMPLETED for r in results
    )


def failures(results: list[Any]) -> list[str]:
    """Why each run that did not complete ended as it did (a failed step names its error)."""
    found = []
    for result in results:
        if isinstance(result, GraphResult) and result.status != GraphStatusValue.COMPLETED:
            found.append(f"{result.status.value}: {result.message}")
        elif isinstance(result, WorkflowFailureError) and result.cause is not None:
            cause = result.cause  # GraphWorkflow's "Step X failed: why"
            found.append(f"failed: {getattr(cause, 'message', None) or cause}")
        elif isinstance(result, TimeoutError):
            found.append("no result within the run's time limit")
        elif not isinstance(result, GraphResult):
            found.append(f"{type(result).__name__}: {result}")
    return [" ".join(f.split())[:400] for f in found]


def mean(values: list[float]) -> float:
    return statistics.mean(values) if values else float("nan")


def percentile(values: list[float], share: float) -> float:
    """The value below which `share` of the values lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[round(share * (len(ordered) - 1))] if ordered else float("nan")
