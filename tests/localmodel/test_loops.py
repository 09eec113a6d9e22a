"""An answer whose lines loop is told as it streams and stopped there."""

import logging
from typing import Any

import pytest
from langchain_core.messages import HumanMessage, SystemMessage

from localmodel.loops import LOOPED, repeating_block, repeating_run
from tests.localmodel.test_chat import completion, stub

COUNTING = "".join(f'    assert truncate("abcdefghij", -{n}) == "abc"\n' for n in range(1, 300))


def test_a_line_that_repeats_with_a_counting_number_is_a_loop() -> None:
    text = "def test_negative():\n" + COUNTING[:2000] + "    assert trunc"
    block = repeating_block(text)
    assert block.startswith('    assert truncate("abcdefghij", -') and "\n" not in block


def test_a_block_of_lines_that_repeats_is_a_loop() -> None:
    text = "import x\n" + "def test_it():\n    assert f(1) == 1\n" * 8
    assert repeating_block(text) == "def test_it():\n    assert f(1) == 1"


def test_tests_of_different_cases_are_not_a_loop() -> None:
    numerals = ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII"]
    cases = "".join(f'    assert to_roman({n}) == "{r}"\n' for n, r in enumerate(numerals, 1))
    assert repeating_block("def test_roman():\n" + cases * 2) == ""
    assert repeating_block("\n" * 40) == ""  # blank lines say nothing
    assert repeating_block(COUNTING[:300]) == ""  # too few lines yet


ONE_LINE_LIST = "def test_chunks():\n    assert chunked(items, 2) == [[1, 2], " + ", ".join(
    f"[{n}]" for n in range(3, 400)
)


def test_a_line_that_goes_on_repeating_a_piece_is_a_loop() -> None:
    piece = repeating_run(ONE_LINE_LIST)
    assert piece and set(piece) <= set("[0], "), piece
    assert repeating_run("x = 1\n" + "-" * 300) == "-"


def test_long_lines_that_do_not_repeat_are_not_a_loop() -> None:
    words = " ".join(f"word{chr(97 + n % 26)}{chr(97 + n * 7 % 26)}" for n in range(80))
    assert repeating_run(f'    """{words}"""') == ""
    assert repeating_run(ONE_LINE_LIST[:200]) == ""  # too short yet
    assert repeating_run(ONE_LINE_LIST + "\n") == ""  # a finished line is the block check's
    assert repeating_run(" " * 400) == ""  # blanks say nothing


async def test_a_test_written_as_one_looping_line_is_stopped_as_it_streams(
    caplog: pytest.LogCaptureFixture,
) -> None:
    served: list[str] = []
    bodies: list[dict[str, Any]] = []
    answer = "tests/test_criteria.py\n```python\n" + ONE_LINE_LIST * 3
    model = stub(bodies, completion(answer, finish_reason="length"), served)
    prompt = [SystemMessage(content="task: implement_file\nTest it."), HumanMessage(content="x")]
    with caplog.at_level(logging.INFO, logger="ticketsmith.model"):
        result = await model.ainvoke(prompt)
    assert bodies[0]["stream"] is True
    assert sum(map(len, served)) < 1000, f"the server streamed {sum(map(len, served))} chars"
    assert result.response_metadata["finish_reason"] == LOOPED
    assert "answer of task implement_file stopped, its lines loop" in caplog.text


async def test_a_looping_answer_is_stopped_as_it_streams(
    caplog: pytest.LogCaptureFixture,
) -> None:
    served: list[str] = []
    bodies: list[dict[str, Any]] = []
    answer = "tests/test_t.py\n```python\ndef test_negative():\n" + COUNTING + "```\n"
    model = stub(bodies, completion(answer, finish_reason="length"), served)
    prompt = [SystemMessage(content="task: implement_file\nWrite it."), HumanMessage(content="x")]
    with caplog.at_level(logging.INFO, logger="ticketsmith.model"):
        result = await model.ainvoke(prompt)
    assert bodies[0]["stream"] is True
    assert len(served) < 40, f"the server streamed {len(served)} lines before the stop"
    assert result.response_metadata["finish_reason"] == LOOPED
    assert result.text.startswith("tests/test_t.py\n```python\ndef test_negative():\n")
    assert result.usage_metadata and result.usage_metadata["output_tokens"] > 0
    assert "answer of task implement_file stopped, its lines loop" in caplog.text


async def test_an_answer_that_does_not_loop_streams_to_its_end() -> None:
    served: list[str] = []
    answer = "calc.py\n```python\ndef add(a, b):\n    return a + b\n```\n"
    model = stub([], completion(answer), served)
    prompt = [SystemMessage(content="task: implement_file\nWrite it."), HumanMessage(content="x")]
    result = await model.ainvoke(prompt)
    assert result.text == answer and len(served) == answer.count("\n")
    assert result.response_metadata["finish_reason"] == "stop"
    assert result.usage_metadata and result.usage_metadata["output_tokens"] == 40
