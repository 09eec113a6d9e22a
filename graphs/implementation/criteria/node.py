"""Acceptance criteria as tests: written before the code, checked to fail on the original."""

import ast
import re
from dataclasses import dataclass
from typing import Any

from langchain_core.language_models import BaseChatModel

from graphs.implementation.criteria.asked_checks import checked_acceptance
from graphs.implementation.criteria.examples import example_tests, implied_subject
from graphs.implementation.criteria.failing_files import failing_sources, related_sources
from graphs.implementation.criteria.guards import HOLDS, guard_checks
from graphs.implementation.criteria.outline import api_outline
from graphs.implementation.criteria.ticket import criteria_path, ticket_criteria
from graphs.implementation.criteria.written_tests import (
    stated_checks,
    with_written_tests,
    written_tests,
)
from graphs.implementation.journal import Journal, WorkerOutcome
from graphs.implementation.prepare import assignment
from graphs.implementation.revision import is_test_file, read_current
from graphs.implementation.state import ImplementationState, Tester
from graphs.implementation.worker.cut_short import cut_short, kept_of_cut
from graphs.implementation.worker.window import fence_language
from graphs.models import capped
from graphs.node_types import AsyncNode
from graphs.planning.paths import is_test_path
from graphs.schemas import FailedTest, FileChange, PlannedFile, TestReport
from llm.fences import fence, find_file_block
from llm.prompting import task_messages
from llm.structured import trim
from llm.toolloop import invoke_with_tools

SOURCE_CHARS = 2500
JOINED_PURPOSE = "Change what the ticket asks where the acceptance tests show it fails."
EXAMPLE_CHARS = 800
# A test of one criterion is a few lines: the local model was seen writing a test per list
# length instead, 3,190 tokens (five minutes) to its limit, for one criterion.
MODULE_TOKENS = 192
CRITERION_TOKENS = 320
_SPELLED_AS_CODE = re.compile(r"`[^`\n]+`|\"[^\"\n]{1,60}\"|'[^'\n]{1,60}'")
# Failures that say the test itself is broken, not that the change is missing.
_BROKEN_TEST = re.compile(r"NameError|fixture '\w+' not found|SyntaxError|IndentationError")


def shown_paths(state: ImplementationState) -> list[str]:
    """The planned files, then the source files the ticket's words point to beyond them."""
    planned = [a["file"].path for a in state.get("assignments", [])]
    related = related_sources(state.get("index"), state["ticket"], planned, state["repo_dir"])
    return [*planned, *related]


def sources_block(state: ImplementationState) -> tuple[str, str]:
    """What tests can import and call from the planned and related files (other files fenced
    and trimmed), and one existing test file."""
    repo_dir = state["repo_dir"]
    paths = [p for p in shown_paths(state) if not is_test_file(p) and (repo_dir / p).is_file()]
    python = [p for p in paths if p.endswith(".py")]
    sources = api_outline(repo_dir, python, state.get("index"))
    sources += [
        fence(p, trim(read_current(repo_dir / p) or "", SOURCE_CHARS), fence_language(p))
        for p in paths
        if p not in python
    ]
    tests = sorted(p for p in repo_dir.glob("tests/test_*.py"))
    example = (
        fence(str(tests[0].relative_to(repo_dir)), trim(tests[0].read_text(), EXAMPLE_CHARS))
        if tests
        else "(none)"
    )
    return "\n\n".join(sources) or "(no source file is planned)", example


def told(state: ImplementationState) -> list[str]:
    """What the reporter wrote: the ticket and the answers."""
    ticket, requirements = state["ticket"], state["requirements"]
    texts = [ticket.summary, ticket.description, ticket.acceptance_criteria or ""]
    return texts + ([] if requirements is None else requirements.answers)


def code_texts(state: ImplementationState) -> list[str]:
    """The plan's contracts and the files shown."""
    texts = [f"{c.signature} {c.behaviour}" for c in state["plan"].contracts]
    return texts + [read_current(state["repo_dir"] / path) or "" for path in shown_paths(state)]


def words_of(texts: list[str]) -> set[str]:
    """Every word the texts spell."""
    return set(re.findall(r"\w+", "\n".join(texts)))


def vocabulary(state: ImplementationState) -> set[str]:
    """Every word the ticket, the answers, the plan's contracts and the files shown spell."""
    return words_of(told(state) + code_texts(state))


def code_words(state: ImplementationState) -> set[str]:
    """Every word spelled as code: in the plan's contracts, the files shown, and the code
    spans and quoted strings of the ticket and the answers."""
    spans = [span for text in told(state) for span in _SPELLED_AS_CODE.findall(text)]
    return words_of(spans + code_texts(state))


def fails_for_the_stated_reason(report: TestReport, path: str) -> tuple[bool, str]:
    """Whether the new tests fail on the original code, and not because they are broken."""
    mine = [f for f in report.failed_tests if f.file == path]
    broken = [f for f in mine if _BROKEN_TEST.search(f.message + f.details)]
    if broken:
        return False, f"{broken[0].test_id} is broken: {broken[0].message.splitlines()[0][:150]}"
    if not mine:
        return False, "they pass on the original code, so they do not test the change"
    return True, f"{len(mine)} fail on the original code as they should"


def without_tests(content: str, names: set[str]) -> str:
    """A test module without the named test functions."""
    tree = ast.parse(content)
    tree.body = [n for n in tree.body if not (isinstance(n, ast.FunctionDef) and n.name in names)]
    return ast.unparse(tree) + "\n"


def name_of_test(test: str) -> str:
    """The name of a test function from its source."""
    return test.removeprefix("def ").split("(", 1)[0]


@dataclass(frozen=True)
class GuardTests:
    """The names of the guards' tests: of still-holding criteria, and of the answers'."""

    holding: frozenset[str] = frozenset()
    others: frozenset[str] = frozenset()


def guard_failures(report: TestReport, path: str, guards: GuardTests) -> dict[str, str]:
    """The guard tests to leave out, and why: a still-holding one failing on the original
    code (it cannot test what holds), another one broken (it must not sink the module)."""
    wrong: dict[str, str] = {}
    for failure in (f for f in report.failed_tests if f.file == path):
        name = failure.test_id.rsplit("::", 1)[-1]
        if name in guards.holding:
            wrong[name] = "it fails on the original code"
        elif name in guards.others and _BROKEN_TEST.search(failure.message + failure.details):
            wrong[name] = "it is broken"
    return wrong


async def checked(
    tester: Tester, change: FileChange, tokens: int, what: str, guards: GuardTests | None = None
) -> WorkerOutcome:
    """The tests kept when they fail on the original code, and not because they are broken;
    a guard's test that cannot stand is left out first (`guard_failures`)."""
    report = await tester([change])
    wrong = guard_failures(report, change.path, guards or GuardTests())
    if wrong:
        content = without_tests(change.content, set(wrong))
        change = change.model_copy(update={"content": content})
        failures = [f for f in report.failed_tests if f.test_id.rsplit("::", 1)[-1] not in wrong]
        report = report.model_copy(update={"failed_tests": failures})
        what += "".join(f" ({name} left out: {why})" for name, why in sorted(wrong.items()))
    kept, why = fails_for_the_stated_reason(report, change.path)
    note = f"{change.path}: {what} {'kept' if kept else 'dropped'}, {why}"
    if not kept:
        return WorkerOutcome(revision=0, path=change.path, note=note, tokens=tokens)
    failures = [f for f in report.failed_tests if f.file == change.path]
    return WorkerOutcome(
        revision=0, path=change.path, change=change, note=note, tokens=tokens, failures=failures
    )


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
    model: BaseChatModel,
    tester: Tester | None,
    journal: Journal,
    examples: bool = False,
    checks: bool = False,
) -> AsyncNode[ImplementationState]:
    """The node that writes the acceptance tests and keeps them when they fail as they
    should: with `checks`, from the checks the model lists as data; else the ticket's stated
    examples and the model's tests of what criteria state without a call."""

    async def ask(
        state: ImplementationState, path: str, criteria: list[str], note: str = ""
    ) -> tuple[str, int]:
        """The model's test module for these criteria ("" when it wrote none), and its tokens."""
        ticket, requirements = state["ticket"], state["requirements"]
        sources, example = sources_block(state)
        rules = [] if requirements is None else requirements.requirements[:15]
        answers = [] if requirements is None else requirements.answers
        messages = task_messages(
            "criteria_tests",
            {"path": path},
            key=ticket.key,
            summary=ticket.summary,
            description=trim(ticket.description, 1500),
            criteria="\n".join(f"- {c} {note}".rstrip() for c in criteria),
            requirements="\n".join([*(f"- {r}" for r in rules), *answers]) or "(none)",
            sources=sources,
            example=example,
            path=path,
        )
        bound = MODULE_TOKENS + CRITERION_TOKENS * len(criteria)
        answer, tokens, _ = await invoke_with_tools(capped(model, bound), messages, [])
        text = find_file_block(answer.text, path)
        if cut_short(answer):  # the tests it finished before it ran on still count
            text = kept_of_cut(path, text)
        return text or "", tokens

    async def stated(state: ImplementationState, path: str) -> WorkerOutcome | None:
        """The stated examples and, for criteria the examples do not test as stated and for
        the errors the answers or a still-holding criterion state, the model's tests of what
        they state; the examples alone when those are broken."""
        ticket, repo_dir = state["ticket"], state["repo_dir"]
        assert tester is not None
        criteria, contracts = ticket.acceptance_criteria, state["plan"].contracts
        text = f"{ticket.summary}\n{ticket.description}\n{criteria or ''}"
        subject = implied_subject(text, repo_dir)
        planned = [f.path for f in state["plan"].files if not is_test_path(f.path)]
        spelled = example_tests(ticket.key, criteria, repo_dir, contracts, subject, planned)
        wanted = stated_checks(criteria, subject)
        answers = [] if state["requirements"] is None else state["requirements"].answers
        guards = guard_checks(criteria, answers)
        words, keys = vocabulary(state), code_words(state)
        imports: list[str] = []
        tests: list[str] = []
        holding: list[str] = []  # tests of what holds already: they must pass on the original
        others: list[str] = []  # tests of the answers' errors
        tokens = 0
        for criterion, stated in {**wanted, **guards.stated}.items():  # one call each
            holds = criterion in guards.holding
            text, used = await ask(state, path, [criterion], HOLDS if holds else "")
            others = [c for c in ticket_criteria(criteria) if c != criterion]
            found, written = written_tests(
                text, criterion, stated, repo_dir, len(tests) + 1, words, others, keys
            )
            imports, tests, tokens = [*imports, *found], [*tests, *written], tokens + used
            if criterion in guards.stated:
                (holding if holds else others).extend(name_of_test(t) for t in written)
        if not tests:
            if spelled is None:
                if not wanted:
                    return None
                note = f"{path}: no example stated, no test of a criterion kept"
                return WorkerOutcome(revision=0, path=path, note=note, tokens=tokens)
            return await checked(tester, FileChange(path=path, content=spelled), tokens, "examples")
        both = with_written_tests(spelled, ticket.key, imports, tests)
        what = f"{'examples and ' if spelled else ''}{len(tests)} tests of criteria"
        change = FileChange(path=path, content=both)
        named = GuardTests(holding=frozenset(holding), others=frozenset(others))
        outcome = await checked(tester, change, tokens, what, named)
        if outcome.change is None and spelled is not None:
            alone = await checked(tester, FileChange(path=path, content=spelled), 0, "examples")
            note = f"{outcome.note}; {alone.note.removeprefix(f'{path}: ')}"
            return alone.model_copy(update={"note": note, "tokens": tokens})
        return outcome

    async def criteria(state: ImplementationState) -> dict[str, Any]:
        if not examples or tester is None:
            return {}
        path = criteria_path(state["ticket"].key)
        if (state["repo_dir"] / path).exists():
            return {}
        outcome = journal.worker(0, path)
        if outcome is None:
            if checks:
                assert tester is not None
                outcome = await checked_acceptance(model, tester, state, path)
            else:
                outcome = await stated(state, path)
            if outcome is None:
                return {}
            journal.record_worker(outcome)
        update: dict[str, Any] = {"notes": [outcome.note], "tokens": outcome.tokens}
        if outcome.change is not None:
            update["files"] = {path: outcome.change}
            update["first_failures"] = outcome.failures
            update.update(joined_files(state, outcome.failures))
        return update

    return criteria
