"""Fitting prompts into the local model's context."""

import threading

import pytest
from langchain_core.messages import HumanMessage, SystemMessage

from localmodel.context import (
    ContextTooSmall,
    estimate_tokens,
    fit_messages,
    prompt_tokens,
    window_text,
)


def test_the_estimate_is_conservative_for_code() -> None:
    assert estimate_tokens("") == 0
    assert estimate_tokens("x" * 320) == 100


def test_a_short_text_is_not_windowed() -> None:
    assert window_text("a\nb\n", 100) == "a\nb\n"


def test_windowing_keeps_head_and_tail_on_line_boundaries() -> None:
    text = "".join(f"line {n}\n" for n in range(1000))
    windowed = window_text(text, 600)
    assert windowed.startswith("line 0\n") and windowed.endswith("line 999\n")
    assert "lines cut to fit the model's context" in windowed
    assert len(windowed) <= 700


def test_one_huge_line_is_cut_by_characters() -> None:
    windowed = window_text("x" * 5000, 600)
    assert "characters cut" in windowed and len(windowed) < 700


def test_a_prompt_that_fits_is_sent_as_it_is_with_the_rest_for_the_answer() -> None:
    messages = [SystemMessage(content="task: plan\nBe brief."), HumanMessage(content="Plan it.")]
    fitted = fit_messages(messages, context=4096, min_answer=768)
    assert fitted.messages == messages and fitted.cut_tokens == 0
    assert fitted.answer_tokens == 4096 - fitted.prompt_tokens - 64


def test_a_long_prompt_is_windowed_in_its_longest_message() -> None:
    code = "".join(f"def f{n}():\n    return {n}\n" for n in range(2000))
    system = SystemMessage(content="task: implement_file\nWrite whole files.")
    messages = [system, HumanMessage(content=code)]
    fitted = fit_messages(messages, context=4096, min_answer=768)
    assert fitted.messages[0] == system
    assert fitted.prompt_tokens <= 4096 - 768 - 64
    assert fitted.prompt_tokens == prompt_tokens(fitted.messages)
    assert fitted.answer_tokens >= 768 and fitted.cut_tokens > 0
    assert fitted.messages[1].text.startswith("def f0():")


def test_context_blocks_are_windowed_before_the_code_the_answer_rewrites() -> None:
    related = "".join(f"def util{n}():\n    return {n}\n" for n in range(600))
    subject = "".join(f"VALUE_{n} = {n}\n" for n in range(150))
    human = (
        f"Related code:\nutil.py\n```python\n{related}```\n\n"
        f"Rewrite it:\ncalc/ops.py\n```python\n{subject}```\n\n"
        '```json\n{"path": "calc/ops.py"}\n```'
    )
    messages = [SystemMessage(content="task: implement_file"), HumanMessage(content=human)]
    fitted = fit_messages(messages, context=4096, min_answer=1500)
    sent = fitted.messages[1].text
    assert fitted.cut_tokens > 0 and "lines cut to fit" in sent
    assert subject in sent  # untouched
    assert sent.endswith('```json\n{"path": "calc/ops.py"}\n```')
    assert fitted.prompt_tokens <= 4096 - 1500 - 64


def test_the_answer_gets_room_to_rewrite_the_whole_subject() -> None:
    subject = "".join(f"VALUE_{n} = {n}\n" for n in range(300))
    human = f"Rewrite it:\ncalc/ops.py\n```python\n{subject}```\n"
    fitted = fit_messages([HumanMessage(content=human)], context=4096, min_answer=256)
    assert fitted.answer_tokens >= estimate_tokens(subject)


def fit_within(messages: list, deadline_s: float = 10.0):
    """fit_messages in a thread, failing when it does not return by the deadline."""
    done: list = []
    worker = threading.Thread(
        target=lambda: done.append(fit_messages(messages, 4096, 768)), daemon=True
    )
    worker.start()
    worker.join(deadline_s)
    assert done, "fit_messages did not return"
    return done[0]


def test_a_block_windowing_cannot_shorten_is_left_and_fitting_ends() -> None:
    related = "".join(f"x{n} = {n}\n" for n in range(60))[:414]  # just over what is kept
    subject = "".join(f"VALUE_{n} = {n}\n" for n in range(600))  # the answer needs it all
    human = (
        f"Related code:\nutil.py\n```python\n{related}```\n\n"
        f"Rewrite it:\ncalc/ops.py\n```python\n{subject}```\n"
    )
    fitted = fit_within([SystemMessage(content="task: implement_file"), HumanMessage(human)])
    assert subject in fitted.messages[1].text  # what the answer rewrites is never cut
    assert fitted.answer_tokens == 4096 - fitted.prompt_tokens - 64


def test_code_too_big_to_rewrite_in_the_context_is_refused_clearly() -> None:
    subject = "x = '" + "a" * 20000 + "'\n"  # one long generated line
    human = f"Rewrite it:\nbundle.min.js\n```js\n{subject}```\n"
    with pytest.raises(ContextTooSmall, match="leaves no room for an answer in a 4096-token"):
        fit_messages([HumanMessage(content=human)], 4096, 768)
