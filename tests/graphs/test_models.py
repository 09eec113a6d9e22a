"""The model factory and the scripted model."""

import pytest
from langchain_core.messages import HumanMessage
from langchain_openai import ChatOpenAI

from graphs.models import ScriptedChatModel, ScriptExhaustedError, make_chat_model
from graphs.offline import OfflineChatModel


def test_openai_provider_never_retries_and_honours_base_url() -> None:
    model = make_chat_model(
        "openai", api_key="sk-test", base_url="http://127.0.0.1:9/v1", model="local"
    )
    assert isinstance(model, ChatOpenAI)
    assert model.max_retries == 0
    assert model.openai_api_base == "http://127.0.0.1:9/v1"
    assert model.model_name == "local"


def test_openai_provider_without_key_or_url_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(ValueError, match="api_key"):
        make_chat_model("openai")


def test_offline_provider() -> None:
    assert isinstance(make_chat_model("offline"), OfflineChatModel)


def test_unknown_provider_names_the_valid_ones() -> None:
    with pytest.raises(ValueError, match="openai, offline"):
        make_chat_model("anthropic")


async def test_scripted_model_answers_in_order_and_records_prompts() -> None:
    model = ScriptedChatModel(["one", lambda messages: f"echo {messages[-1].text}"])
    first = await model.ainvoke([HumanMessage(content="hello")])
    second = await model.ainvoke([HumanMessage(content="again")])
    assert (first.text, second.text) == ("one", "echo again")
    assert [m[-1].text for m in model.received] == ["hello", "again"]
    assert first.usage_metadata is not None and first.usage_metadata["total_tokens"] > 0


async def test_scripted_model_says_when_the_script_runs_out() -> None:
    model = ScriptedChatModel(["only"])
    await model.ainvoke("first")
    with pytest.raises(ScriptExhaustedError, match="1 answers"):
        await model.ainvoke("second")
