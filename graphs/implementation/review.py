"""The QA review node: the diff against the plan, its contracts and the test results."""

import ast
import difflib
from pathlib import Path
from typing import Any

from langchain_core.language_models import BaseChatModel

from graphs.implementation.budget import Budget
from graphs.implementation.criteria.ticket import acceptance_criteria
from graphs.implementation.diagnose.contracts import contract_gaps, ticket_words
from graphs.implementation.diagnose.feedback import tail
from graphs.implementation.diagnose.stated_errors import stated_errors, unraised_errors
from graphs.implementation.finish.coverage import covering_test, test_sources
from graphs.implementation.journal import Journal, ReviewOutcome
from graphs.implementation.revision import current_changes, read_current
from graphs.implementation.state import (
    MAX_FIXES,
    Fix,
    ImplementationState,
    Review,
    ReviewAnswer,
)
from graphs.implementation.worker.statements import same, without_docstrings
from graphs.node_types import AsyncNode
from graphs.planning.paths import is_test_path
from graphs.schemas import FileChange, TestReport
from llm.fences import safe_relative_path
from llm.prompting import task_prompt
from llm.structured import ModelAnswerError, ask_structured, trim

DIFF_CHARS = 6000
FILE_DIFF_CHARS = 3000
TEST_OUTPUT_CHARS = 2000


def file_diff(repo_dir: Path, change: FileChange) -> str:
    """A unified diff of one change against the checkout."""
    original = read_current(repo_dir / change.path) or ""
    new = "" if change.delete else change.content
    lines = difflib.unified_diff(
        original.splitlines(keepends=True),
        new.splitlines(keepends=True),
        fromfile=f"a/{change.path}",
        tofile="/dev/null" if change.delete else f"b/{change.path}",
    )
    return trim("".join(lines), FILE_DIFF_CHARS)


def diff_text(repo_dir: Path, changes: list[FileChange]) -> str:
    """The diff of every change, within the review's character budget."""
    return trim("\n".join(file_diff(repo_dir, c) for c in changes), DIFF_CHARS)


def test_results(tests: TestReport | None) -> dict[str, Any]:
    """The test run as the review sees it."""
    if tests is None:
        return {"ran": False, "note": "No test command ran for this revision."}
    return {
        "ran": True,
        "passed": tests.passed,
        "exit_code": tests.exit_code,
        "timed_out": tests.timed_out,
        "output_end": tail(tests.output.strip(), TEST_OUTPUT_CHARS),
    }


def review_inputs(state: ImplementationState) -> dict[str, Any]:
    """The inputs block of the review prompt."""
    plan, requirements = state["plan"], state["requirements"]
    changes = current_changes(state)
    inputs: dict[str, Any] = {
        "plan": {
            "summary": plan.summary,
            "files": [f.model_dump() for f in plan.files],
            "contracts": [c.model_dump() for c in plan.contracts],
        },
        "requirements": None
        if requirements is None
        else requirements.model_dump(include={"requirements", "acceptance_criteria"}),
        "changed_files": [c.path for c in changes],
        "diff": diff_text(state["repo_dir"], changes),
        "tests": test_results(state.get("tests")),
    }
    if state.get("instructions"):  # only then: prompts without them stay as they were
        inputs["repository_instructions"] = state["instructions"]
    return inputs


def review_prompt(state: ImplementationState) -> tuple[str, str]:
    """The review's (system, human) texts. They name no revision, so a revision's review
    begins as the last one did up to the diff and a local server's prompt cache reads the
    plan and the requirements once."""
    ticket = state["ticket"]
    return task_prompt("review", review_inputs(state), key=ticket.key, summary=ticket.summary)


def settle(review: Review, tests: TestReport | None, missing: list[Fix] | None = None) -> Review:
    """The review, failed when the tests fail or a planned file lacks its planned work,
    whatever the model said."""
    if review.passed and tests is not None and not tests.passed:
        summary = f"{review.summary.strip()} The tests fail, so the change cannot pass."
        return review.model_copy(update={"passed": False, "summary": summary.strip()})
    if review.passed and missing:
        lacking = " ".join(f"`{fix.path}`: {fix.instruction}" for fix in missing)
        summary = f"{review.summary.strip()} Work the ticket asks for is missing: {lacking}"
        fixes = [*missing, *review.fixes][:MAX_FIXES]
        return review.model_copy(update={"passed": False, "summary": summary, "fixes": fixes})
    return review


NO_CODE_CHANGED = "changes only comments, docstrings or layout, no code; the plan:"


def same_code(path: str, original: str, new: str) -> bool:
    """Whether a Python source file's new text is the same code, comments, docstrings and
    layout aside."""
    if not path.endswith(".py") or is_test_path(path):
        return False
    try:
        return same(without_docstrings(ast.parse(original)), without_docstrings(ast.parse(new)))
    except (SyntaxError, ValueError):
        return False


def missing_work(state: ImplementationState) -> list[Fix]:
    """What the revision lacks of the plan: planned files it left as they are, functions of the
    plan's contracts (as the ticket names them) that their files do not define, errors the
    criteria say are raised that no planned source file raises."""
    plan = state["plan"]
    changes = {c.path: c for c in current_changes(state)}
    words = ticket_words(state["ticket"], state.get("requirements"))
    missing = unraised(state, changes)
    for planned in (f for f in plan.files if safe_relative_path(f.path) == f.path):
        change = changes.get(planned.path)
        if planned.action != "delete" and change is None and not is_test_path(planned.path):
            missing.append(
                Fix(path=planned.path, instruction=f"not changed; the plan: {planned.purpose}")
            )
        elif change is not None and not change.delete:
            existing = read_current(state["repo_dir"] / planned.path)
            original = existing or ""
            if existing is not None and same_code(planned.path, existing, change.content):
                missing.append(
                    Fix(path=planned.path, instruction=f"{NO_CODE_CHANGED} {planned.purpose}")
                )
                continue
            gaps = contract_gaps(plan.contracts, planned.path, change.content, words, original)
            missing += [Fix(path=planned.path, instruction=gap) for gap in gaps]
    return missing


def unraised(state: ImplementationState, changes: dict[str, FileChange]) -> list[Fix]:
    """An instruction for each error the criteria say is raised and no planned source file
    (as the revision leaves it) raises, unless a passing test of the criterion shows it raised
    all the same (`range` raises ValueError for a step of zero); on the first of those files
    the revision changed."""
    criteria = acceptance_criteria(state["ticket"], state.get("requirements"))
    if not stated_errors(criteria):  # most tickets: no planned file need be read
        return []
    repo_dir, plan = state["repo_dir"], state["plan"]
    paths = [
        f.path
        for f in plan.files
        if safe_relative_path(f.path) == f.path
        and f.path.endswith(".py")
        and f.action != "delete"
        and not is_test_path(f.path)
    ]
    sources = {
        p: changes[p].content if p in changes else (read_current(repo_dir / p) or "") for p in paths
    }
    gaps = unraised_errors(criteria, list(sources.values()))
    report = state.get("tests")
    if gaps and report is not None:  # a passing test of the criterion shows it raised anyway
        tests = test_sources(report, repo_dir, changes)
        gaps = [g for g in gaps if covering_test(g[1], report, tests, criteria)[1] is not True]
    target = next((p for p in paths if p in changes), paths[0] if paths else "")
    return [
        Fix(path=target, instruction=f'raises no `{error}`; the ticket says: "{criterion}"')
        for error, criterion in gaps
    ]


UNREVIEWED = (
    "Not passed: the tests fail. The model did not review this revision, so that the time for"
    " work holds another one."
)
FAILING = "Not passed: the tests fail; their failures are the next revision's feedback."
UNUSABLE = (
    "Not passed: QA's answer could not be used ({why}); a revision is not passed without a review."
)


def without_review(summary: str, missing: list[Fix]) -> Review:
    """A verdict the model did not give: not passed, with what the plan's check finds
    missing; the test failures are the next revision's feedback."""
    if missing:
        lacking = " ".join(f"`{fix.path}`: {fix.instruction}" for fix in missing)
        summary += f" Work the ticket asks for is missing: {lacking}"
    return Review(passed=False, summary=summary, fixes=missing[:MAX_FIXES])


def make_review(
    model: BaseChatModel,
    journal: Journal,
    budget: Budget | None = None,
    review_failing: bool = True,
) -> AsyncNode[ImplementationState]:
    """The node that asks the model to review the revision (or replays the review). A
    revision whose tests fail is not put to the model without `review_failing`, nor when a
    review would leave no time for the revision after it: its verdict cannot be a pass."""

    async def review(state: ImplementationState) -> dict[str, Any]:
        revision = state["revision"]
        outcome = journal.review(revision)
        if outcome is None:
            journal.start("review", revision)
            tests = state.get("tests")
            failing = tests is not None and not tests.passed
            if failing and not review_failing:
                verdict, tokens = without_review(FAILING, missing_work(state)), 0
            elif failing and budget is not None and budget.rushed():
                verdict, tokens = without_review(UNREVIEWED, missing_work(state)), 0
            else:
                system, human = review_prompt(state)
                try:
                    answer, tokens = await ask_structured(model, system, human, ReviewAnswer)
                    verdict = settle(answer.review(), tests, missing_work(state))
                except ModelAnswerError as error:  # the loop goes on; its failed tries count
                    why = UNUSABLE.format(why=error.reason)
                    verdict, tokens = without_review(why, missing_work(state)), error.tokens
            outcome = ReviewOutcome(revision=revision, review=verdict, tokens=tokens)
            journal.record_review(outcome)
        return {"review": outcome.review, "tokens": outcome.tokens}

    return review
