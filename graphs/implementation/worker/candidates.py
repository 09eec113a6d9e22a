"""Candidates: where a file's tests still fail, k versions of it, and the one the tests prefer."""

from collections.abc import Awaitable, Callable, Sequence

from langchain_core.language_models import BaseChatModel
from langchain_core.tools import BaseTool

from graphs.implementation.journal import WorkerOutcome
from graphs.implementation.state import Tester, WorkerState
from graphs.implementation.tester.best import rank
from graphs.implementation.tester.gate import syntax_errors
from graphs.schemas import FileChange, TestReport

CANDIDATE_TEMPERATURE = 0.7
Writer = Callable[[BaseChatModel, Sequence[BaseTool], WorkerState], Awaitable[WorkerOutcome]]


def warmer(model: BaseChatModel, temperature: float = CANDIDATE_TEMPERATURE) -> BaseChatModel:
    """The model sampling above temperature zero, when it has a temperature to set."""
    if "temperature" in type(model).model_fields:
        return model.model_copy(update={"temperature": temperature})
    return model


async def try_candidate(
    tester: Tester, others: list[FileChange], change: FileChange, state: WorkerState
) -> tuple[tuple[int, int, int], TestReport | None]:
    """The rank of the tests with this version of the file (the lowest when it does not compile)."""
    if syntax_errors([change]):
        return (-1, -1, -1), None
    report = await tester([*others, change])
    if report.import_errors:
        return (-1, -1, -1), report
    return rank(report, state.get("own_tests", [])), report


async def best_candidate(
    write: Writer,
    model: BaseChatModel,
    tools: Sequence[BaseTool],
    state: WorkerState,
    tester: Tester,
    first: WorkerOutcome,
    k: int,
) -> WorkerOutcome:
    """Write k-1 more versions at a higher temperature and keep the one whose tests rank best."""
    outcomes = [first]
    warm = warmer(model)
    for _ in range(k - 1):
        outcomes.append(await write(warm, tools, state))
    tokens = sum(o.tokens for o in outcomes)
    seen: set[str] = set()
    scored: list[tuple[tuple[int, int, int], int, WorkerOutcome, TestReport | None]] = []
    for number, outcome in enumerate(outcomes):
        if outcome.change is None or outcome.change.content in seen:
            continue
        seen.add(outcome.change.content)
        score, report = await try_candidate(tester, state.get("others", []), outcome.change, state)
        scored.append((score, -number, outcome, report))
    if not scored:
        return first.model_copy(update={"tokens": tokens})
    score, _, chosen, report = max(scored, key=lambda item: (item[0], item[1]))
    passed = "no test run" if report is None else f"{len(report.passed_tests)} tests pass"
    note = f"{chosen.note} (the best of {len(scored)} distinct candidates: {passed})"
    return chosen.model_copy(update={"tokens": tokens, "note": note})
