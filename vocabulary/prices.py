"""Model prices as `TICKETSMITH_MODEL_PRICES` gives them: US dollars per million tokens in and
out, by model name, over the free local and offline models."""

import json

from pydantic import BaseModel, Field, ValidationError

from vocabulary.amounts import PRICES_SETTING

EXAMPLE = '{"gpt-4o-mini": {"input": 0.15, "output": 0.60}}'


class ModelPrice(BaseModel):
    """US dollars per million input and per million output tokens."""

    input: float = Field(ge=0)
    output: float = Field(ge=0)


# The local model and the offline one run on this machine; a setting may still price them.
FREE = {"local": ModelPrice(input=0, output=0), "offline": ModelPrice(input=0, output=0)}


class PricesError(ValueError):
    """The prices setting cannot be read."""


def parse_prices(text: str) -> dict[str, ModelPrice]:
    """The prices a setting gives, by model name, over the free local and offline models."""
    if not text.strip():
        return dict(FREE)
    try:
        value = json.loads(text)
    except json.JSONDecodeError as err:
        raise PricesError(f"{PRICES_SETTING} is not JSON ({err}); write it like {EXAMPLE}") from err
    if not isinstance(value, dict):
        raise PricesError(f"{PRICES_SETTING} must be a JSON object by model name, like {EXAMPLE}")
    prices = dict(FREE)
    for model, price in value.items():
        try:
            prices[model] = ModelPrice.model_validate(price)
        except ValidationError as err:
            problems = "; ".join(
                f"{'.'.join(map(str, e['loc'])) or 'price'}: {e['msg']}" for e in err.errors()
            )
            raise PricesError(
                f"{PRICES_SETTING}: the price of {model!r} is wrong ({problems}); give dollars "
                f"per million tokens in and out, like {EXAMPLE}"
            ) from None
    return prices
