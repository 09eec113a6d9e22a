"""The acceptance tests from the checks the model lists, kept as they behave on the original.

A check of the change must fail on the original code, for a reason that is not the test's
own (a syntax error, an unknown fixture); a check that holds already must pass there. The
checks that do not behave as declared are left out, each with its reason. Those said to hold
already that fail are disputed: a check of the change mislabelled, or a wrong one. They are
kept aside, never as acceptance tests, to prefer among drafts of the change (candidates.py).
"""

from langchain_core.language_models import BaseChatModel

from graphs.implementation.criteria.checks import (
    Checks,
    CheckTest,
    Where,
    check_tests,
    test_module,
)
from graphs.implementation.criteria.failing_files import related_sources
from graphs.implementation.criteria.outline import api_outline
from graphs.implementation.criteria.ticket import acceptance_criteria, disputed_path
from graphs.implementation.journal import WorkerOutcome
from graphs.implementation.state import ImplementationState, Tester
from graphs.planning.paths import is_test_path
from graphs.schemas import FailedTest, FileChange, TestReport
from llm.prompting import task_prompt
from llm.structured import ModelAnswerError, ask_structured, trim

BROKEN_MARKS = ("SyntaxError", "IndentationError", "fixture '")


def checks_prompt(state: ImplementationState, path: str) -> tuple[str, str]:
    """The (system, human) texts of the checks' call."""
    ticket, requirements, plan = state["ticket"], state["requirements"], state["plan"]
    criteria = acceptance_criteria(ticket, requirements)
    answers = [] if requirements is None else requirements.answers
    planned = [f.path for f in plan.files if f.path.endswith(".py") and not is_test_path(f.path)]
    related = related_sources(state.get("index"), ticket, planned, state["repo_dir"])
    sources = api_outline(state["repo_dir"], [*planned, *related], state.get("index"))
    return task_prompt(
        "acceptance_checks",
        {"path": path},
        key=ticket.key,
        summary=ticket.summary,
        description=trim(ticket.description.strip(), 1500) or "(nothing more)",
        answers=trim("\n\n".join(answers), 1000) or "(none given)",
        contracts="\n".join(f"- {c.path}: {c.signature}: {c.behaviour}" for c in plan.contracts)
        or "(none)",
        sources="\n\n".join(sources) or "(no source file is planned)",
        criteria="\n".join(f"{n}. {c}" for n, c in enumerate(criteria, 1)) or "(none stated)",
    )


def behaved(
    tests: list[CheckTest], report: TestReport, path: str
) -> tuple[list[CheckTest], list[str], list[CheckTest]]:
    """The tests that behaved on the original code as their checks declare, why each of the
    others is left out, and the disputed ones: said to hold already, they fail there."""
    failed = {f.test_id.rsplit("::", 1)[-1]: f for f in report.failed_tests if f.file == path}
    kept: list[CheckTest] = []
    dropped: list[str] = []
    disputed: list[CheckTest] = []
    for test in tests:
        failure = failed.get(test.name)
        if failure is not None and any(
            m in failure.message + failure.details for m in BROKEN_MARKS
        ):
            dropped.append(f"{test.name} left out: it is broken ({failure.message[:120]})")
        elif test.holds and failure is not None:
            dropped.append(f"{test.name} left out: it says this holds already, and it fails")
            disputed.append(test)
        elif not test.holds and failure is None:
            dropped.append(f"{test.name} left out: it passes on the original code")
        else:
            kept.append(test)
    return kept, dropped, disputed


async def checked_acceptance(
    model: BaseChatModel, tester: Tester, state: ImplementationState, path: str
) -> WorkerOutcome:
    """The acceptance test module of the checks that behave as declared (no change when none
    of the change's checks does), with its failures on the original code."""
    system, human = checks_prompt(state, path)
    try:
        checks, tokens = await ask_structured(model, system, human, Checks, retries=1)
    except ModelAnswerError as error:
        note = f"{path}: no checks, the answer could not be used ({error.reason})"
        return WorkerOutcome(revision=0, path=path, note=note, tokens=error.tokens)
    plan = state["plan"]
    where = Where(state["repo_dir"], plan.contracts)
    criteria = acceptance_criteria(state["ticket"], state["requirements"])
    tests, unusable = check_tests(checks, where, criteria)
    if not tests:
        why = "; ".join(unusable) or "the model listed none"
        return WorkerOutcome(
            revision=0, path=path, note=f"{path}: no check kept ({why})", tokens=tokens
        )
    report = await tester([FileChange(path=path, content=test_module(tests))])
    kept, dropped, disputed = behaved(tests, report, path)
    aside = disputed_path(state["ticket"].key)
    kept_aside = FileChange(path=aside, content=test_module(disputed)) if disputed else None
    reasons = "".join(f"; {why}" for why in [*unusable, *dropped])
    changes = [t for t in kept if not t.holds]
    if not changes:
        note = f"{path}: checks dropped, none of the change fails on the original code{reasons}"
        return WorkerOutcome(revision=0, path=path, note=note, tokens=tokens, disputed=kept_aside)
    names = {t.name for t in changes}
    failures: list[FailedTest] = [
        f for f in report.failed_tests if f.file == path and f.test_id.rsplit("::", 1)[-1] in names
    ]
    note = (
        f"{path}: {len(kept)} of {len(checks.checks)} checks kept, {len(changes)} failing on"
        f" the original code as they should{reasons}"
    )
    change = FileChange(path=path, content=test_module(kept))
    return WorkerOutcome(
        revision=0, path=path, change=change, note=note, tokens=tokens, failures=failures,
        disputed=kept_aside,
    )  # fmt: skip
