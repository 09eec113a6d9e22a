"""Acceptance criteria as tests: written before the code, checked to fail on the original."""

import re
from typing import Any

from langchain_core.language_models import BaseChatModel

from graphs.fences import fence, find_file_block
from graphs.implementation.examples import example_tests
from graphs.implementation.failures import is_test_file
from graphs.implementation.files import fence_language, read_current
from graphs.implementation.gate import syntax_errors
from graphs.implementation.journal import Journal, WorkerOutcome
from graphs.implementation.state import ImplementationState, Tester
from graphs.node_types import AsyncNode
from graphs.prompting import task_messages
from graphs.schemas import FileChange, TestReport
from graphs.structured import trim
from graphs.toolloop import invoke_with_tools

SOURCE_CHARS = 2500
EXAMPLE_CHARS = 800
# Failures that say the test itself is broken, not that the change is missing.
_BROKEN_TEST = re.compile(r"NameError|fixture '\w+' not found|SyntaxError|IndentationError")


def criteria_path(key: str) -> str:
    """Where the acceptance tests of a ticket go."""
    return f"tests/test_{re.sub(r'[^a-z0-9]+', '_', key.lower())}_acceptance.py"


def sources_block(state: ImplementationState) -> tuple[str, str]:
    """The planned source files and one existing test file, fenced and trimmed."""
    repo_dir = state["repo_dir"]
    paths = [a["file"].path for a in state.get("assignments", [])]
    sources = [
        fence(p, trim(read_current(repo_dir / p) or "", SOURCE_CHARS), fence_language(p))
        for p in paths
        if not is_test_file(p) and (repo_dir / p).is_file()
    ]
    tests = sorted(p for p in repo_dir.glob("tests/test_*.py"))
    example = (
        fence(str(tests[0].relative_to(repo_dir)), trim(tests[0].read_text(), EXAMPLE_CHARS))
        if tests
        else "(none)"
    )
    return "\n\n".join(sources) or "(no source file is planned)", example


def fails_for_the_stated_reason(report: TestReport, path: str) -> tuple[bool, str]:
    """Whether the new tests fail on the original code, and not because they are broken."""
    mine = [f for f in report.failed_tests if f.file == path]
    broken = [f for f in mine if _BROKEN_TEST.search(f.message + f.details)]
    if broken:
        return False, f"{broken[0].test_id} is broken: {broken[0].message.splitlines()[0][:150]}"
    if not mine:
        return False, "they pass on the original code, so they do not test the change"
    return True, f"{len(mine)} fail on the original code as they should"


async def checked(tester: Tester, change: FileChange, tokens: int, what: str) -> WorkerOutcome:
    """The tests kept when they fail on the original code, and not because they are broken."""
    report = await tester([change])
    kept, why = fails_for_the_stated_reason(report, change.path)
    note = f"{change.path}: {what} {'kept' if kept else 'dropped'}, {why}"
    return WorkerOutcome(
        revision=0, path=change.path, change=change if kept else None, note=note, tokens=tokens
    )


def make_criteria(
    model: BaseChatModel,
    tester: Tester | None,
    journal: Journal,
    enabled: bool,
    examples: bool = False,
) -> AsyncNode[ImplementationState]:
    """The node that writes the acceptance tests (the ticket's stated examples, else the
    model's) and keeps them when they fail as they should."""

    async def write(state: ImplementationState, path: str) -> WorkerOutcome | None:
        ticket, requirements = state["ticket"], state["requirements"]
        assert tester is not None
        contracts = state["plan"].contracts
        stated = example_tests(ticket.key, ticket.acceptance_criteria, state["repo_dir"], contracts)
        if examples and stated is not None:
            return await checked(tester, FileChange(path=path, content=stated), 0, "examples")
        if not enabled or not requirements or not requirements.acceptance_criteria:
            return None
        sources, example = sources_block(state)
        messages = task_messages(
            "criteria_tests",
            {"path": path},
            key=ticket.key,
            summary=ticket.summary,
            description=trim(ticket.description, 1500),
            criteria="\n".join(f"- {c}" for c in requirements.acceptance_criteria),
            requirements="\n".join(f"- {r}" for r in requirements.requirements[:15]),
            sources=sources,
            example=example,
            path=path,
        )
        answer, tokens, _ = await invoke_with_tools(model, messages, [])
        text = find_file_block(answer.text, path)
        if not text or not text.strip():
            return WorkerOutcome(
                revision=0, path=path, note=f"{path}: no tests written", tokens=tokens
            )
        change = FileChange(path=path, content=text)
        errors = syntax_errors([change])
        if errors:
            note = f"{path}: dropped, {errors[path]}"
            return WorkerOutcome(revision=0, path=path, note=note, tokens=tokens)
        return await checked(tester, change, tokens, "acceptance tests")

    async def criteria(state: ImplementationState) -> dict[str, Any]:
        if not (enabled or examples) or tester is None:
            return {}
        path = criteria_path(state["ticket"].key)
        if (state["repo_dir"] / path).exists():
            return {}
        outcome = journal.worker(0, path)
        if outcome is None:
            outcome = await write(state, path)
            if outcome is None:
                return {}
            journal.record_worker(outcome)
        update: dict[str, Any] = {"notes": [outcome.note], "tokens": outcome.tokens}
        if outcome.change is not None:
            update["files"] = {path: outcome.change}
        return update

    return criteria
