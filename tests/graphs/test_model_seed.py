"""The model seed setting reaches the model server: every chat request carries a seed drawn
from it, or none."""

from collections.abc import Iterator
from typing import Any

import pytest
from langchain_core.messages import HumanMessage

from config import Settings, get_settings
from harness.model_server import FakeModelServer
from worker import chat_model


@pytest.fixture
def server() -> Iterator[FakeModelServer]:
    """An OpenAI-compatible server that records every request body."""
    running = FakeModelServer(lambda body: "done")
    running.start()
    yield running
    running.stop()


def sent(server: FakeModelServer) -> dict[str, Any]:
    """The body of the only request the server received."""
    assert len(server.calls) == 1
    return server.calls[0].body


@pytest.mark.parametrize("seed", [7, None])
async def test_the_openai_provider_sends_the_seed_of_the_settings(
    server: FakeModelServer, seed: int | None
) -> None:
    settings = Settings(
        model_provider="openai", openai_base_url=server.base_url, openai_model="fake",
        model_seed=seed,
    )  # fmt: skip
    answer = await chat_model(settings).ainvoke([HumanMessage(content="hello")])
    assert answer.text == "done"
    drawn = sent(server).get("seed")
    assert drawn is None if seed is None else isinstance(drawn, int)


async def test_the_local_provider_sends_the_seed_set_in_the_environment(
    server: FakeModelServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    port = server.base_url.rsplit(":", 1)[1].split("/")[0]
    monkeypatch.setenv("TICKETSMITH_LOCAL_MODEL_HOST", "127.0.0.1")
    monkeypatch.setenv("TICKETSMITH_LOCAL_MODEL_PORT", port)
    monkeypatch.setenv("TICKETSMITH_MODEL_SEED", "1234")
    get_settings.cache_clear()
    try:
        settings = Settings(model_provider="local")
        model = chat_model(settings)
        await model.ainvoke([HumanMessage(content="hello")])
    finally:
        get_settings.cache_clear()
    assert settings.model_seed == 1234
    assert isinstance(sent(server)["seed"], int)
