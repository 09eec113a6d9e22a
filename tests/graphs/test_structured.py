"""ask_structured: JSON from text, bounded re-asks, and clear failures."""

from typing import Annotated

import pytest
from langchain_core.messages import AIMessage, HumanMessage
from pydantic import BaseModel, Field

from graphs.models import ScriptedChatModel
from llm.structured import ModelAnswerError, ask_structured, capped, extract_json


class Verdict(BaseModel):
    """A small answer schema for the tests."""

    ok: bool
    reasons: Annotated[list[str], capped(2), Field(max_length=2)]


@pytest.mark.parametrize(
    "text",
    [
        '{"ok": true, "reasons": ["a"]}',
        'Sure!\n```json\n{"ok": true, "reasons": ["a"]}\n```\nDone.',
        'Here it is: {"ok": true, "reasons": ["a"]} hope that helps {"x": 1}',
        '<think>{"ok": false}</think>{"ok": true, "reasons": ["a"]}',
        "Answer: {'ok': true, 'reasons': ['a'],}",  # near-JSON, repaired
        '{"ok": true, "reasons": ["a"',  # cut short, closed by the repair
    ],
)
def test_extract_json_finds_the_object(text: str) -> None:
    assert extract_json(text) == {"ok": True, "reasons": ["a"]}


def test_extract_json_without_an_object_raises() -> None:
    with pytest.raises(ValueError, match="no JSON object"):
        extract_json("I cannot help with that.")


async def test_bad_answer_is_re_asked_with_the_error_then_accepted() -> None:
    model = ScriptedChatModel(["not json at all", '{"ok": "maybe"}', '{"ok": true, "reasons": []}'])
    verdict, tokens = await ask_structured(model, "task: test\nJudge.", "Is it fine?", Verdict)
    assert verdict == Verdict(ok=True, reasons=[])
    assert model.calls == 3
    second = model.received[1]
    assert isinstance(second[-2], AIMessage) and second[-2].text == "not json at all"
    assert isinstance(second[-1], HumanMessage) and "no JSON object" in second[-1].text
    assert "ok" in model.received[2][-1].text  # the validation error names the field
    assert tokens > 0


async def test_system_message_keeps_the_task_line_and_carries_the_schema() -> None:
    model = ScriptedChatModel(['{"ok": false, "reasons": ["x"]}'])
    await ask_structured(model, "task: test\nJudge.", "Is it fine?", Verdict)
    system = model.received[0][0].text
    assert system.splitlines()[0] == "task: test"
    assert '"reasons"' in system and "items)" in system  # the outline, with its list bound


async def test_persistent_bad_answers_fail_with_the_raw_text() -> None:
    model = ScriptedChatModel(["first nonsense", "second nonsense", "third nonsense"])
    with pytest.raises(ModelAnswerError) as caught:
        await ask_structured(model, "task: test", "Is it fine?", Verdict, retries=2)
    assert model.calls == 3
    assert "third nonsense" in str(caught.value)
    assert "Verdict" in str(caught.value)
    assert caught.value.raw == "third nonsense"


async def test_overlong_lists_are_cut_to_their_bound() -> None:
    model = ScriptedChatModel(['{"ok": true, "reasons": ["a", "b", "c", "d"]}'])
    verdict, _ = await ask_structured(model, "task: test", "Is it fine?", Verdict)
    assert verdict.reasons == ["a", "b"]
