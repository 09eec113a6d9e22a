"""The implementation graph: acceptance tests first, then revisions until QA passes.

    START -> prepare -> criteria -> candidates
                                              |
                                              v
                                     supervisor --Send, one per file--> worker* -> tester
                                     ^  ^  |                                        |
                                     |  |  '-- no file to write --------.           |
                                     |  |                               |           |
                                     |  '---- Redo | Discarded | Stalled +----------+
                                     |                                   |          |
                                     '-- not passed -- review <----------|-- Kept | Salvaged
                                                         |               v
                                                         '-- passed --> settle -> finish -> END

With `candidates` above one, the candidates stage drafts the first revision that many times
and keeps the draft the tests prefer (candidates.py); otherwise it passes the state on.
The tester decides one `RevisionOutcome` per revision (tester/outcome.py) and `after_tests`
matches on it; `after_review` reads QA's verdict. Where the loop would go back to the
supervisor with no revision left (`max_revisions`, the minutes spent, `STALLS_ALLOWED`
revisions in a row that changed nothing), it goes to settle: every way out passes there.
A journal records every completed step (worker, test run, review), so a run resumed from its
journal skips them. graphs/implementation/README.md walks a failing test through the modules.
"""

from collections.abc import Awaitable, Callable, Hashable, Sequence
from pathlib import Path
from typing import Literal

from langchain_core.language_models import BaseChatModel
from langchain_core.tools import BaseTool
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from graphs.analysis.instructions import read_instructions
from graphs.implementation.budget import Budget
from graphs.implementation.candidates import make_candidates
from graphs.implementation.criteria.node import make_criteria
from graphs.implementation.finish.node import make_finish
from graphs.implementation.finish.refuted_tests import make_settle
from graphs.implementation.journal import Journal, Progress, StepStarted
from graphs.implementation.prepare import prepare
from graphs.implementation.review import make_review
from graphs.implementation.state import (
    ImplementationInput,
    ImplementationState,
    Tester,
    WorkerState,
)
from graphs.implementation.steering import Steering
from graphs.implementation.supervisor import fan_out, make_supervisor
from graphs.implementation.tester.node import make_tester
from graphs.implementation.tester.outcome import Discarded, Kept, Redo, Salvaged, Stalled
from graphs.implementation.worker.node import make_worker
from graphs.offline import is_offline
from graphs.schemas import Analysis, Implementation, Plan, Requirements, TicketContext

MAX_REVISIONS = 15
STEPS_PER_REVISION = 5
# A revision that changed nothing is tried once more, warmer, before the loop stops: at
# temperature zero the same prompt gives the same answer, and a small model often gives the
# best version back unchanged right after a discard.
STALLS_ALLOWED = 2


def make_after_tests(
    max_revisions: int, budget: Budget | None = None, stalls_allowed: int = STALLS_ALLOWED
) -> Callable[[ImplementationState], Awaitable[Literal["review", "supervisor", "finish"]]]:
    """The router after the tests, by the revision's outcome: QA reviews a kept or salvaged
    revision (unless the ticket's time for work is over); a discarded one, or files that do
    not compile or import, go straight back to the supervisor, and so does a revision that
    changed nothing, until `stalls_allowed` in a row."""

    async def after_tests(state: ImplementationState) -> Literal["review", "supervisor", "finish"]:
        more = state["revision"] < max_revisions and not (budget and budget.spent())
        match state.get("outcome"):
            case Stalled(stalls=stalls):
                return "supervisor" if more and stalls < stalls_allowed else "finish"
            case Redo() | Discarded():
                return "supervisor" if more else "finish"
            case Kept() | Salvaged():
                return "finish" if budget and budget.over() else "review"
            case unexpected:
                raise ValueError(f"after_tests ran without a tested revision: {unexpected!r}")

    return after_tests


def make_after_review(
    max_revisions: int, budget: Budget | None = None
) -> Callable[[ImplementationState], Awaitable[Literal["supervisor", "finish"]]]:
    """The router after QA: another revision until QA passes, or the limit is reached or the
    time for revisions is spent."""

    async def after_review(state: ImplementationState) -> Literal["supervisor", "finish"]:
        review = state.get("review")
        if review is None:
            raise ValueError("after_review ran without a review")
        if review.passed or state["revision"] >= max_revisions or (budget and budget.spent()):
            return "finish"
        return "supervisor"

    return after_review


def build_implementation_graph(
    model: BaseChatModel,
    tools: Sequence[BaseTool] = (),
    *,
    tester: Tester | None = None,
    journal: Journal | None = None,
    max_revisions: int = MAX_REVISIONS,
    example_tests: bool = False,
    review_failing: bool = True,
    definition_edits: bool = True,
    definition_targets: bool = False,
    first_draft: bool = False,
    bare_revisions: bool = False,
    candidates: int = 1,
    minutes: float | None = None,
    steering: Steering | None = None,
    seconds_left: float | None = None,
) -> CompiledStateGraph:
    """Compile the implementation graph around a model, extra tools and the project's tests."""
    journal = journal or Journal()
    budget = Budget(minutes, seconds_left=seconds_left)
    builder = StateGraph(ImplementationState, input_schema=ImplementationInput)
    builder.add_node("prepare", prepare)
    criteria = make_criteria(model, tester, journal, example_tests)
    builder.add_node("criteria", criteria)
    builder.add_node(
        "candidates", make_candidates(model, tools, tester, journal, candidates, budget)
    )
    builder.add_node("supervisor", make_supervisor(steering, budget))
    worker = make_worker(
        model, tools, journal, definition_edits, definition_targets, first_draft, bare_revisions
    )
    builder.add_node("worker", worker, input_schema=WorkerState)
    builder.add_node("tester", make_tester(tester, journal))
    builder.add_node("review", make_review(model, journal, budget, review_failing))
    builder.add_node("settle", make_settle(tester, journal))
    builder.add_node("finish", make_finish(model, max_revisions, journal, budget))
    builder.add_edge(START, "prepare")
    builder.add_edge("prepare", "criteria")
    builder.add_edge("criteria", "candidates")
    builder.add_edge("candidates", "supervisor")
    # Every way out of the loop goes through settle, which may leave refuted tests out.
    to_settle: dict[Hashable, str] = {"finish": "settle"}
    builder.add_conditional_edges("supervisor", fan_out, {"worker": "worker", **to_settle})
    builder.add_edge("worker", "tester")
    # The offline model answers the same at any temperature: a revision that changed
    # nothing is not tried again.
    builder.add_conditional_edges(
        "tester",
        make_after_tests(max_revisions, budget, 1 if is_offline(model) else STALLS_ALLOWED),
        {"review": "review", "supervisor": "supervisor", **to_settle},
    )
    builder.add_conditional_edges(
        "review",
        make_after_review(max_revisions, budget),
        {"supervisor": "supervisor", **to_settle},
    )
    builder.add_edge("settle", "finish")
    builder.add_edge("finish", END)
    return builder.compile()


async def implement_plan(
    model: BaseChatModel,
    repo_dir: Path,
    ticket: TicketContext,
    plan: Plan,
    requirements: Requirements | None,
    *,
    analysis: Analysis | None = None,
    tools: Sequence[BaseTool] = (),
    tester: Tester | None = None,
    max_revisions: int = MAX_REVISIONS,
    example_tests: bool = False,
    review_failing: bool = True,
    definition_edits: bool = True,
    definition_targets: bool = False,
    first_draft: bool = False,
    bare_revisions: bool = False,
    candidates: int = 1,
    minutes: float | None = None,
    progress: Progress | None = None,
    on_progress: Callable[[Progress], None] | None = None,
    on_start: StepStarted | None = None,
    steering: Steering | None = None,
    seconds_left: float | None = None,
) -> Implementation:
    """Implement the plan: parallel workers, the project's tests, QA, and fixes until it passes.

    `progress` from an interrupted run is replayed instead of redone; `on_progress` receives
    the progress after every completed step (worker, test run, review), `on_start` hears
    of each step as it begins. With `example_tests`, the model lists the change's checks as
    data first (`criteria/checks.py`); those that fail on the original code, or hold there
    as declared, are the acceptance tests. Without `review_failing`, QA's model reviews
    only a revision whose tests pass (a failing one cannot pass; its failures are the next
    revision's feedback). With `definition_edits`, a worker answers a Python file of some
    length with the definitions it adds or changes, spliced in by the syntax tree, instead
    of the whole file; with `definition_targets` too, it first chooses which definitions
    change and is shown only those. With `first_draft`, a short file's first revision is one
    bare call (`worker/draft.py`); with `bare_revisions`, every revision of it is, told what
    the last one's tests and QA said. With `candidates` above one, the first revision of the
    short files is the bare draft the tests prefer of that many (`candidates.py`). With
    `minutes`, no revision starts once that long has passed: the run finishes with its best
    revision; with `seconds_left` (the ticket's time for work) no revision starts that would
    end past it. `steering` is where people's guidance for the next revision and a stop
    come from.
    """
    if max_revisions < 1:
        raise ValueError("max_revisions must be at least 1")
    journal = Journal(progress, on_progress, on_start)
    graph = build_implementation_graph(
        model,
        tools,
        tester=tester,
        journal=journal,
        max_revisions=max_revisions,
        example_tests=example_tests,
        review_failing=review_failing,
        definition_edits=definition_edits,
        definition_targets=definition_targets,
        first_draft=first_draft,
        bare_revisions=bare_revisions,
        candidates=candidates,
        minutes=minutes,
        steering=steering,
        seconds_left=seconds_left,
    )
    state = await graph.ainvoke(
        {
            "repo_dir": repo_dir,
            "ticket": ticket,
            "plan": plan,
            "requirements": requirements,
            "analysis": analysis,
            # Read from the checkout, so that review rounds (no analysis) follow them too.
            "instructions": read_instructions(repo_dir).prompt_text(),
        },
        {"recursion_limit": STEPS_PER_REVISION * max_revisions + 12},
    )
    implementation: Implementation = state["implementation"]
    return implementation
