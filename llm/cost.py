"""What model calls cost: tokens in and out, their price in dollars, and tokens with no price."""

from pydantic import BaseModel, Field

from llm import cost_text
from llm.cost_text import money as money


class ModelCost(BaseModel):
    """Model tokens in and out and what they cost; a model with no price leaves its tokens
    unpriced instead of counting them as free."""

    input_tokens: int = 0
    output_tokens: int = 0
    dollars: float = 0.0  # what the priced tokens cost
    unpriced_tokens: int = 0
    unpriced_models: list[str] = Field(default_factory=list)

    @property
    def tokens(self) -> int:
        """Input and output tokens together."""
        return self.input_tokens + self.output_tokens

    def plus(self, other: "ModelCost") -> "ModelCost":
        """Both costs together."""
        return ModelCost(**cost_text.total([self.model_dump(), other.model_dump()]))

    def since(self, earlier: "ModelCost") -> "ModelCost":
        """What was added to `earlier` to make this cost."""
        unpriced = self.unpriced_tokens - earlier.unpriced_tokens
        return ModelCost(
            input_tokens=self.input_tokens - earlier.input_tokens,
            output_tokens=self.output_tokens - earlier.output_tokens,
            dollars=max(0.0, self.dollars - earlier.dollars),
            unpriced_tokens=unpriced,
            unpriced_models=self.unpriced_models if unpriced else [],
        )

    def split(self) -> str:
        """`1,200 in / 300 out`."""
        return cost_text.split(self.model_dump())

    def short(self) -> str:
        """`$0.0123` for a table cell: `unknown` with no price at all, `$0.0123+?` with some."""
        return cost_text.short(self.model_dump())

    def text(self, cap: float | None = None) -> str:
        """`$0.0123` (`of $5.00`, the cap), saying so when some tokens had no price."""
        return cost_text.text(self.model_dump(), cap)
