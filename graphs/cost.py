"""What model calls cost: tokens in and out, their price in dollars, and tokens with no price."""

from pydantic import BaseModel, Field

PRICES_SETTING = "TICKETSMITH_MODEL_PRICES"


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
        return ModelCost(
            input_tokens=self.input_tokens + other.input_tokens,
            output_tokens=self.output_tokens + other.output_tokens,
            dollars=self.dollars + other.dollars,
            unpriced_tokens=self.unpriced_tokens + other.unpriced_tokens,
            unpriced_models=sorted({*self.unpriced_models, *other.unpriced_models}),
        )

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
        return f"{self.input_tokens:,} in / {self.output_tokens:,} out"

    def short(self) -> str:
        """`$0.0123` for a table cell: `unknown` with no price at all, `$0.0123+?` with some."""
        if not self.unpriced_tokens:
            return money(self.dollars)
        return "unknown" if not self.dollars else f"{money(self.dollars)}+?"

    def text(self, cap: float | None = None) -> str:
        """`$0.0123` (`of $5.00`, the cap), saying so when some tokens had no price."""
        spent = money(self.dollars) + (f" of {money(cap)}" if cap is not None else "")
        if not self.unpriced_tokens:
            return spent
        missing = (
            f"{self.unpriced_tokens:,} tokens of {', '.join(self.unpriced_models) or 'a model'} "
            f"with no price in {PRICES_SETTING}"
        )
        if self.unpriced_tokens >= self.tokens and not self.dollars and cap is None:
            return f"unknown ({missing})"
        return f"{spent} + {missing}"


def money(dollars: float) -> str:
    """`$12.30`, or `$0.0042` below ten cents, where cents would round a call's cost away."""
    if dollars >= 0.1 or dollars == 0:
        return f"${dollars:,.2f}"
    return f"${dollars:.4f}"
