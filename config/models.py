"""Settings of the model: the provider, OpenAI's account, prices, seeds and the local model."""

from pathlib import Path

from pydantic import AliasChoices, Field, SecretStr, model_validator

from config.common import ROOT, CommonSettings
from vocabulary.prices import ModelPrice, parse_prices


class ModelSettings(CommonSettings):
    """Which model answers, what it costs, and where the local one lives."""

    model_provider: str = "auto"
    openai_api_key: SecretStr | None = Field(
        default=None, validation_alias=AliasChoices("OPENAI_API_KEY", "TICKETSMITH_OPENAI_API_KEY")
    )
    openai_base_url: str | None = Field(
        default=None,
        validation_alias=AliasChoices("OPENAI_BASE_URL", "TICKETSMITH_OPENAI_BASE_URL"),
    )
    openai_model: str = "gpt-4o-mini"
    openai_temperature: float = 0.0
    # US dollars per million input and output tokens by model name, as JSON:
    # {"gpt-4o-mini": {"input": 0.15, "output": 0.60}}. The local and offline models are free.
    model_prices: str = ""
    # The run's seed: every chat request carries a seed drawn from it (OpenAI's and llama.cpp's
    # `seed`), so a run can be drawn again; None sends none. The quality benchmark sets one a run.
    model_seed: int | None = None

    models_dir: Path = ROOT / ".models"
    local_model_path: Path | None = None
    local_model_host: str = "127.0.0.1"
    local_model_port: int = 8181
    local_model_context: int = 4096  # tokens of context per slot
    # Calls the server answers at once; each slot gets the whole context (one: they queue).
    local_model_slots: int = Field(default=1, ge=1, le=8)

    @model_validator(mode="after")
    def _readable_prices(self) -> "ModelSettings":
        """Refuse prices that cannot be read now, not at a ticket's first model call."""
        self.prices()
        return self

    def prices(self) -> dict[str, ModelPrice]:
        """The model prices by model name."""
        return parse_prices(self.model_prices)
