"""The research bench's model choice: an OpenAI-compatible server needs an address, bad
choices are one clear error, and the local one names where it is."""

from pathlib import Path

import pytest
from langchain_openai import ChatOpenAI

from bench.support.research_model import ModelUnavailableError, bench_model
from config import Settings


async def test_openai_needs_a_base_url_or_a_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(ModelUnavailableError, match="OPENAI_BASE_URL"):
        async with bench_model("openai", Settings(openai_base_url=None), tmp_path):
            pass
    settings = Settings(openai_base_url="http://127.0.0.1:9/v1", openai_model="qwen")
    async with bench_model("openai", settings, tmp_path) as chosen:
        assert isinstance(chosen.model, ChatOpenAI) and chosen.model.model_name == "qwen"
        assert chosen.description == "openai: qwen at http://127.0.0.1:9/v1"


async def test_a_missing_local_model_says_how_to_install_it(tmp_path: Path) -> None:
    settings = Settings(models_dir=tmp_path / "none", local_model_port=9)
    with pytest.raises(ModelUnavailableError, match="make local-model"):
        async with bench_model("local", settings, tmp_path):
            pass
    with pytest.raises(ModelUnavailableError, match="unknown model 'gpt'"):
        async with bench_model("gpt", settings, tmp_path):
            pass
