"""Prompt files and the task/inputs contract."""

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from llm.prompting import TASKS, load_prompt, read_task, render, task_messages


def test_render_fills_known_placeholders_and_leaves_json_alone() -> None:
    assert render('Hi {name}: {"a": 1}', name="Ann") == 'Hi Ann: {"a": 1}'
    assert render("{name}", name="{other}") == "{other}"  # values are not re-rendered
    with pytest.raises(KeyError, match="missing"):
        render("{missing}")


@pytest.mark.parametrize("task", TASKS)
def test_every_system_prompt_starts_with_its_task(task: str) -> None:
    assert load_prompt(f"{task}.system").splitlines()[0] == f"task: {task}"
    assert load_prompt(f"{task}.human").strip()


def test_read_task_round_trips_the_inputs() -> None:
    inputs = {"ticket": {"key": "A-1", "description": "Use ```code``` here"}, "n": [1, 2]}
    messages = task_messages("questions", inputs, key="A-1", summary="S")
    assert messages[1].text.rstrip().endswith("```")
    assert read_task(messages) == ("questions", inputs)
    retry = [*messages, AIMessage(content="oops"), HumanMessage(content="Answer again.")]
    assert read_task(retry) == ("questions", inputs)


def test_unknown_task_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown task"):
        task_messages("dance", {})
