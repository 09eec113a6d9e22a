"""A contract's function that a worker's file still lacks is asked for alone and added."""

from pathlib import Path
from typing import Any

from langchain_core.messages import BaseMessage

from graphs.implementation import implement_plan
from graphs.implementation.diagnose.contracts import lacking_functions
from graphs.implementation.worker.missing_functions import function_sources
from graphs.schemas import Contract, TicketContext
from harness.local_tester import LocalTester
from tests.graphs.test_implementation_loop import (
    GOOD_OPS,
    OPS,
    Reply,
    file_answer,
    plan_for,
    tasks_of,
    team,
    verdict,
)

SUBTRACT = "def subtract(a: int, b: int) -> int:\n    return a - b\n"
ASKED_ALONE = "still lacks what the plan's contracts promise"


async def test_a_function_the_file_never_gains_is_asked_for_alone_and_added(
    tiny_repo: Path, ticket: TicketContext, tmp_path: Path
) -> None:
    tester = LocalTester(tiny_repo, tmp_path / "runs", "python -m pytest -q")
    original = (tiny_repo / OPS).read_text()

    def handle(task: str, inputs: dict[str, Any], messages: list[BaseMessage]) -> Reply:
        if task == "review":
            return verdict(True)
        if ASKED_ALONE in messages[-1].text:
            return file_answer(OPS, SUBTRACT)
        return file_answer(OPS, original)  # the whole file, given back without the function

    model = team(handle)
    result = await implement_plan(model, tiny_repo, ticket, plan_for(OPS), None, tester=tester)
    assert {c.path: c.content for c in result.changes} == {OPS: GOOD_OPS}
    assert result.tests_passed and result.qa_passed and result.revisions == 1
    # the file, once more told it is unchanged, then the function alone
    assert tasks_of(model) == ["implement_file"] * 3 + ["review"]
    alone = model.received[2][-1].text
    assert "Write the function `subtract` alone" in alone
    assert "`subtract(a: int, b: int) -> int`" in alone
    assert "`subtract` asked for alone and added" in result.notes


async def test_an_answer_without_the_function_leaves_the_file_as_it_was(
    tiny_repo: Path, ticket: TicketContext
) -> None:
    original = (tiny_repo / OPS).read_text()

    def handle(task: str, inputs: dict[str, Any], messages: list[BaseMessage]) -> Reply:
        if task == "review":
            return verdict(True)
        if ASKED_ALONE in messages[-1].text:
            return "I cannot write that function."
        return file_answer(OPS, original)

    model = team(handle)
    result = await implement_plan(model, tiny_repo, ticket, plan_for(OPS), None, max_revisions=1)
    assert result.changes == []
    assert not result.qa_passed, "QA passed a file without the contract's function"
    assert f"{OPS}: unchanged" in result.notes
    asked = [m for m in model.received if ASKED_ALONE in m[-1].text]
    assert len(asked) == 1 and result.tokens > 0


async def test_a_function_another_module_defines_is_not_asked_for(
    tiny_repo: Path, ticket: TicketContext
) -> None:
    (tiny_repo / "calc" / "more.py").write_text(SUBTRACT)
    original = (tiny_repo / OPS).read_text()

    def handle(task: str, inputs: dict[str, Any], messages: list[BaseMessage]) -> Reply:
        return verdict(True) if task == "review" else file_answer(OPS, original)

    model = team(handle)
    await implement_plan(model, tiny_repo, ticket, plan_for(OPS), None, max_revisions=1)
    assert tasks_of(model) == ["implement_file"] * 2
    assert not any(ASKED_ALONE in m[-1].text for m in model.received)


def test_only_module_functions_the_ticket_names_are_lacking() -> None:
    path = "library/loans.py"
    contracts = [
        Contract(path=path, signature="def renew(self, days: int = 14)", behaviour=""),
        Contract(path=path, signature="Loan.close()", behaviour=""),
        Contract(path=path, signature="late_fee(days, per_day) -> float", behaviour=""),
        Contract(path=path, signature="helper(x)", behaviour="not named by the ticket"),
        Contract(path="library/other.py", signature="reserve(book)", behaviour=""),
    ]
    words = {"renew", "close", "late_fee", "reserve", "days"}
    source = "class Loan:\n    def start(self, book):\n        pass\n"
    lacking = lacking_functions(contracts, path, source, words)
    assert [c.signature for c in lacking] == ["late_fee(days, per_day) -> float"]
    assert lacking_functions(contracts, path, "def broken(:\n", words) == []


def test_a_function_is_taken_from_an_answer_with_its_decorators_and_nothing_else() -> None:
    answer = (
        "import functools\n\n\ndef add(a, b):\n    return a + b\n\n\n"
        "@functools.cache\ndef subtract(a, b):\n    return a - b\n"
    )
    assert function_sources(answer, ["subtract"]) == {
        "subtract": "@functools.cache\ndef subtract(a, b):\n    return a - b"
    }
    assert function_sources("def subtract(:\n", ["subtract"]) == {}
