"""An answer whose lines loop is told as it streams and stopped there."""

import logging
from typing import Any

import pytest
from langchain_core.messages import HumanMessage, SystemMessage

from localmodel.loops import LOOPED, repeating_block
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
