"""A worker's answer cut short (stopped looping, or at its bound): a test module keeps its
finished tests; other files are asked for again, told what the answer repeated."""

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage

from graphs.implementation import implement_plan
from graphs.implementation.worker.cut_short import complete_part
from harness.local_tester import LocalTester
from localmodel.loops import LOOPED
from tests.graphs.test_convergence import worker_prompts
from tests.graphs.test_implementation_loop import (
    ADD,
    GOOD_OPS,
    NEW_TESTS,
    OPS,
    TESTS,
    Reply,
    file_answer,
    plan_for,
    team,
    verdict,
)

LOOPING_OPS = ADD + "\n\ndef subtract(a: int, b: int) -> int:\n" + "    a = a - 1\n" * 20
LOOPING_TEST = "\n\ndef test_many() -> None:\n" + "".join(
    f"    assert subtract({n}, 1) == {n - 1}\n" for n in range(30)
)


def cut(path: str, content: str, reason: str = LOOPED) -> AIMessage:
    """A worker's answer stopped before its code block closed."""
    answer = file_answer(path, content).removesuffix("```")
    return AIMessage(content=answer, response_metadata={"finish_reason": reason})


async def test_a_looping_code_answer_is_asked_again_told_the_line_it_repeated(
    tiny_repo: Path, ticket: Any, tmp_path: Path
) -> None:
    tester = LocalTester(tiny_repo, tmp_path / "runs", "python -m pytest -q")
    answers: Iterator[Reply] = iter([cut(OPS, LOOPING_OPS), file_answer(OPS, GOOD_OPS)])

    def handle(task: str, inputs: dict[str, Any], messages: list[BaseMessage]) -> Reply:
        return verdict(True) if task == "review" else next(answers)

    model = team(handle)
    result = await implement_plan(model, tiny_repo, ticket, plan_for(OPS), None, tester=tester)
    prompts = worker_prompts(model, OPS)
    assert len(prompts) == 2, "the looping answer was not asked for again"
    told = "repeated lines like `a = a - 1` until it was stopped"
    assert told not in prompts[0] and told in prompts[1]
    assert {c.path: c.content for c in result.changes} == {OPS: GOOD_OPS}
    assert result.tests_passed and result.revisions == 1


async def test_a_test_module_cut_in_its_last_test_keeps_the_tests_before_it(
    tiny_repo: Path, ticket: Any, tmp_path: Path
) -> None:
    tester = LocalTester(tiny_repo, tmp_path / "runs", "python -m pytest -q")

    def handle(task: str, inputs: dict[str, Any], messages: list[BaseMessage]) -> Reply:
        if task == "review":
            return verdict(True)
        if inputs["path"] == TESTS:
            return cut(TESTS, NEW_TESTS + LOOPING_TEST + "    assert subtr", "length")
        return file_answer(OPS, GOOD_OPS)

    model = team(handle)
    result = await implement_plan(
        model, tiny_repo, ticket, plan_for(OPS, TESTS), None, tester=tester
    )
    assert len(worker_prompts(model, TESTS)) == 1  # its finished part stands
    assert {c.path: c.content for c in result.changes} == {OPS: GOOD_OPS, TESTS: NEW_TESTS}
    assert result.tests_passed


def test_the_complete_part_drops_the_unfinished_statement_and_its_decorators() -> None:
    finished = "import pytest\n\n\ndef test_one():\n    assert True\n"
    unfinished = "\n\n@pytest.mark.slow\n@pytest.mark.skip\ndef test_two():\n    assert f(\n"
    assert complete_part(finished + unfinished) == finished
    assert complete_part("def test_one(:\n    pass\n") is None  # nothing before it parses
