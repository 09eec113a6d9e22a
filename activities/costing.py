"""Gives each activity result that counts model tokens its cost: tokens in and out, dollars.

The graphs count each call's tokens into their results; the meter open around the activity
counts the same calls in and out. A retry that resumes from a heartbeat reports tokens of the
attempts before it too, which this attempt's meter never saw: they are split in the
proportion of this attempt's calls (all as output, the dearer kind, when it made none).
"""

from typing import Any

from temporalio.worker import (
    ActivityInboundInterceptor,
    ExecuteActivityInput,
    Interceptor,
)

from activities.pricing import cost_of
from llm.cost import ModelCost
from llm.metering import TokenMeter, metering
from vocabulary.prices import ModelPrice


class CostInterceptor(Interceptor):
    """Sets `cost` on every activity result that has `tokens` and a `cost` field."""

    def __init__(self, model: str, prices: dict[str, ModelPrice]) -> None:
        self._model = model
        self._prices = prices

    def intercept_activity(self, next: ActivityInboundInterceptor) -> ActivityInboundInterceptor:
        """Wrap activity execution."""
        return _CostedActivity(next, self)

    def cost(self, tokens: int, meter: TokenMeter) -> ModelCost:
        """What `tokens` cost, split in and out as the meter counted the calls."""
        if meter.tokens == tokens or meter.tokens == 0:
            sent = min(meter.input_tokens, tokens)
        else:
            sent = round(tokens * meter.input_tokens / meter.tokens)
        return cost_of(self._model, sent, tokens - sent, self._prices)


class _CostedActivity(ActivityInboundInterceptor):
    def __init__(self, next: ActivityInboundInterceptor, costs: CostInterceptor) -> None:
        super().__init__(next)
        self._costs = costs

    async def execute_activity(self, input: ExecuteActivityInput) -> Any:
        with metering() as meter:
            result = await self.next.execute_activity(input)
        tokens = getattr(result, "tokens", None)
        if isinstance(tokens, int) and "cost" in getattr(type(result), "model_fields", {}):
            result.cost = self._costs.cost(tokens, meter)
        return result
