"""The implementation graph's revision loop: tests, QA review, fixes, the cap, and resuming."""

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage

from graphs.implementation import implement_plan
from graphs.implementation.journal import Progress
from graphs.models import ScriptedChatModel
from graphs.schemas import Plan, PlannedFile, TicketContext
from harness.local_tester import LocalTester
from llm.prompting import read_task

OPS = "calc/ops.py"
TESTS = "tests/test_ops.py"
ADD = "def add(a: int, b: int) -> int:\n    return a + b\n"
GOOD_OPS = ADD + "\n\ndef subtract(a: int, b: int) -> int:\n    return a - b\n"
BAD_OPS = ADD + "\n\ndef subtract(a: int, b: int) -> int:\n    return a + b\n"
NEW_TESTS = (
    "from calc.ops import add, subtract\n\n\ndef test_add() -> None:\n    assert add(1, 2) == 3\n"
    "\n\ndef test_subtract() -> None:\n    assert subtract(5, 3) == 2\n"
)

Reply = str | AIMessage
Handler = Callable[[str, dict[str, Any], list[BaseMessage]], Reply]


def plan_for(*paths: str) -> Plan:
    """A plan modifying the given files, with one contract."""
    from graphs.schemas import Contract

    return Plan(
        version=1,
        summary="Add subtract(a, b) and test it.",
        files=[PlannedFile(path=p, action="modify", purpose=f"Change {p}.") for p in paths],
        test_plan=["python -m pytest -q"],
        risks=[],
        contracts=[Contract(path=OPS, signature="subtract(a: int, b: int) -> int", behaviour="")],
        markdown="# Plan",
    )


def without_contracts(*paths: str) -> Plan:
    """The plan for these files without its contract."""
    return plan_for(*paths).model_copy(update={"contracts": []})


def team(handler: Handler, calls: int = 60) -> ScriptedChatModel:
    """A scripted model answering every call through one handler of (task, inputs, messages)."""

    def answer(messages: list[BaseMessage]) -> Reply:
        task, inputs = read_task(messages)
        return handler(task or "", inputs, messages)

    return ScriptedChatModel([answer] * calls)


def file_answer(path: str, content: str) -> str:
    """A worker's answer: the path, then the whole file in a fenced block."""
    return f"{path}\n```python\n{content}```"


def verdict(passed: bool, *fixes: tuple[str, str], summary: str = "") -> str:
    """A QA answer."""
    body = [{"path": p, "instruction": i} for p, i in fixes]
    text = summary or ("Looks right." if passed else "Needs work.")
    return json.dumps({"passed": passed, "summary": text, "fixes": body})


def tasks_of(model: ScriptedChatModel) -> list[str]:
    """The task of every call, in order."""
    return [read_task(m)[0] or "" for m in model.received]


async def test_qa_fails_then_passes(tiny_repo: Path, ticket: TicketContext) -> None:
    reviews = [verdict(False, (OPS, "subtract must return a - b, not a + b.")), verdict(True)]

    def handle(task: str, inputs: dict[str, Any], messages: list[BaseMessage]) -> Reply:
        if task == "review":
            return reviews.pop(0)
        if inputs["path"] == TESTS:
            return file_answer(TESTS, NEW_TESTS)
        return file_answer(OPS, BAD_OPS if inputs["revision"] == 1 else GOOD_OPS)

    model = team(handle)
    result = await implement_plan(model, tiny_repo, ticket, plan_for(OPS, TESTS), None)
    assert result.qa_passed and result.revisions == 2
    assert result.qa_verdict.startswith("Passed at revision 2")
    assert {c.path: c.content for c in result.changes} == {OPS: GOOD_OPS, TESTS: NEW_TESTS}
    assert tasks_of(model).count("implement_file") == 3  # QA named one file to fix
    fix_prompt = model.received[3][-1].text
    assert "subtract must return a - b" in fix_prompt and "def subtract" in fix_prompt
    review_inputs = read_task(model.received[2])[1]
    assert "+    return a + b" in review_inputs["diff"]
    assert review_inputs["plan"]["contracts"][0]["signature"].startswith("subtract(")
    assert "revision 2: calc/ops.py: rewritten" in result.notes
    assert "in 3 worker steps" in result.notes and "in 2 reviews)." in result.notes


async def test_tests_fail_then_pass(tiny_repo: Path, ticket: TicketContext, tmp_path: Path) -> None:
    tester = LocalTester(tiny_repo, tmp_path / "runs", "python -m pytest -q")

    def handle(task: str, inputs: dict[str, Any], messages: list[BaseMessage]) -> Reply:
        if task == "review":
            return verdict(True)  # QA misses the bug: the failing tests still decide
        if inputs["path"] == TESTS:
            return file_answer(TESTS, NEW_TESTS)
        failing = "assert 8 == 2" in messages[-1].text
        return file_answer(OPS, GOOD_OPS if failing else BAD_OPS)

    model = team(handle)
    plan = plan_for(OPS, TESTS)
    result = await implement_plan(model, tiny_repo, ticket, plan, None, tester=tester)
    assert len(tester.runs) == 3  # the checkout as it was, then two revisions
    assert result.tests_passed is True and result.qa_passed and result.revisions == 2
    assert result.last_tests is not None and result.last_tests.exit_code == 0
    assert "2 passed" in result.test_output
    first_review = read_task(model.received[2])[1]["tests"]
    assert first_review["ran"] and not first_review["passed"]
    assert "assert 8 == 2" in first_review["output_end"]
    assert tasks_of(model).count("implement_file") == 3  # the failing test maps to calc/ops.py


async def test_revision_cap_is_reached(tiny_repo: Path, ticket: TicketContext) -> None:
    def handle(task: str, inputs: dict[str, Any], messages: list[BaseMessage]) -> Reply:
        if task == "review":
            return verdict(False, (OPS, "Still wrong."))
        return file_answer(OPS, ADD + f"\n\nVERSION = {inputs['revision']}\n")

    model = team(handle)
    result = await implement_plan(model, tiny_repo, ticket, without_contracts(OPS), None)
    assert result.revisions == 15 and result.qa_passed is False
    assert "after 15 revisions (the limit)" in result.qa_verdict
    assert model.calls == 30
    assert result.changes[0].content.endswith("VERSION = 15\n")


async def test_a_revision_that_changes_nothing_stops_the_loop(
    tiny_repo: Path, ticket: TicketContext
) -> None:
    def handle(task: str, inputs: dict[str, Any], messages: list[BaseMessage]) -> Reply:
        if task == "review":
            return verdict(False, (OPS, "Rename it."))
        return file_answer(OPS, BAD_OPS)

    model = team(handle)
    result = await implement_plan(model, tiny_repo, ticket, plan_for(OPS), None, max_revisions=5)
    assert result.revisions == 3 and result.qa_passed is False
    assert "revision 3 changed nothing" in result.qa_verdict
    # each repeat is asked once more (warmer, where the model has a temperature); a revision
    # that changed nothing is tried once more, and a second one in a row stops the loop
    assert tasks_of(model) == ["implement_file", "review"] + ["implement_file"] * 4


async def test_review_answers_that_never_parse_leave_the_revision_not_passed(
    tiny_repo: Path, ticket: TicketContext
) -> None:
    def handle(task: str, inputs: dict[str, Any], messages: list[BaseMessage]) -> Reply:
        return "LGTM!" if task == "review" else file_answer(OPS, GOOD_OPS)

    model = team(handle)
    result = await implement_plan(model, tiny_repo, ticket, plan_for(OPS), None, max_revisions=1)
    assert tasks_of(model) == ["implement_file", "review", "review", "review"]
    assert "could not be used" in model.received[2][-1].text  # asked again, told why
    assert result.qa_passed is False and {c.path for c in result.changes} == {OPS}
    assert "QA's answer could not be used" in result.qa_verdict
    assert "after 3 attempts" in result.qa_verdict
    counted = re.search(r"(\d+) in 1 reviews", result.notes)
    assert counted and int(counted[1]) > 0, f"failed review attempts not counted: {result.notes}"


async def test_a_resumed_run_replays_completed_steps(
    tiny_repo: Path, ticket: TicketContext, tmp_path: Path
) -> None:
    tester = LocalTester(tiny_repo, tmp_path / "runs", "python -m pytest -q")
    reviews = iter([verdict(False, (OPS, "Fix subtract.")), "crash", verdict(True)])

    def handle(task: str, inputs: dict[str, Any], messages: list[BaseMessage]) -> Reply:
        if task == "review":
            reply = next(reviews)
            if reply == "crash":
                raise ConnectionError("the worker died")
            return reply
        if inputs["path"] == TESTS:
            return file_answer(TESTS, NEW_TESTS)
        return file_answer(OPS, BAD_OPS if inputs["revision"] == 1 else GOOD_OPS)

    saved: list[Progress] = []
    plan = plan_for(OPS, TESTS)
    first = team(handle)
    with pytest.raises(ConnectionError):
        await implement_plan(
            first, tiny_repo, ticket, plan, None, tester=tester, on_progress=saved.append
        )
    last = Progress.model_validate(json.loads(saved[-1].model_dump_json()))
    assert last.steps == 7  # baseline tests; 2 workers, tests, review; revision 2: 1 worker, tests
    assert len(tester.runs) == 3

    second = team(handle)
    result = await implement_plan(
        second, tiny_repo, ticket, plan, None, tester=tester, progress=last
    )
    assert tasks_of(second) == ["review"]  # only the step that was in flight is asked again
    assert len(tester.runs) == 3  # the test runs were replayed, not rerun
    assert result.qa_passed and result.tests_passed and result.revisions == 2
    assert result.tokens > 0


async def test_a_worker_can_query_the_code_through_a_tool(
    tiny_repo: Path, ticket: TicketContext
) -> None:
    query = AIMessage(
        content="",
        tool_calls=[{"name": "context_query", "args": {"query": "shout upper"}, "id": "c1"}],
    )

    def handle(task: str, inputs: dict[str, Any], messages: list[BaseMessage]) -> Reply:
        if task == "review":
            return verdict(True)
        if not isinstance(messages[-1], ToolMessage):
            return query
        return file_answer(OPS, GOOD_OPS)

    model = team(handle)
    result = await implement_plan(model, tiny_repo, ticket, plan_for(OPS), None)
    assert result.qa_passed and [c.path for c in result.changes] == [OPS]
    tool_reply = model.received[1][-1]
    assert isinstance(tool_reply, ToolMessage) and tool_reply.tool_call_id == "c1"
    assert "calc/strings.py (lines 1-2)" in tool_reply.text and "def shout" in tool_reply.text


async def test_a_tool_call_written_as_text_is_run(tiny_repo: Path, ticket: TicketContext) -> None:
    written = json.dumps({"name": "context_query", "arguments": {"query": "shout", "limit": 1}})

    def handle(task: str, inputs: dict[str, Any], messages: list[BaseMessage]) -> Reply:
        if task == "review":
            return verdict(True)
        last = messages[-1]
        if isinstance(last, HumanMessage) and "Result of context_query" in last.text:
            return file_answer(OPS, GOOD_OPS)
        return written

    model = team(handle)
    result = await implement_plan(model, tiny_repo, ticket, plan_for(OPS), None)
    assert [c.content for c in result.changes] == [GOOD_OPS]
    assert "def shout" in model.received[1][-1].text
