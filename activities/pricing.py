"""What model tokens cost at the worker's prices (`TICKETSMITH_MODEL_PRICES`, read by
`vocabulary/prices.py`), and the model name they are looked up by."""

from typing import TYPE_CHECKING

from llm.cost import ModelCost
from localmodel.provider import resolved_model_provider
from vocabulary.prices import ModelPrice

if TYPE_CHECKING:
    from config.models import ModelSettings

PER_TOKENS = 1_000_000


def priced_model(settings: "ModelSettings") -> str:
    """The model name prices are looked up by: the OpenAI model, else `local` or `offline`."""
    provider = resolved_model_provider(settings)
    return settings.openai_model if provider == "openai" else provider


def cost_of(
    model: str, input_tokens: int, output_tokens: int, prices: dict[str, ModelPrice]
) -> ModelCost:
    """What the tokens cost at the model's price; a model with no price leaves them unpriced."""
    price = prices.get(model)
    if price is None:
        tokens = input_tokens + output_tokens
        return ModelCost(
            input_tokens=input_tokens,
            output_tokens=output_tokens,
            unpriced_tokens=tokens,
            unpriced_models=[model] if tokens else [],
        )
    dollars = (input_tokens * price.input + output_tokens * price.output) / PER_TOKENS
    return ModelCost(input_tokens=input_tokens, output_tokens=output_tokens, dollars=dollars)
