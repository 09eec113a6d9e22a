"""How a model cost reads (`$0.0123`, `1,200 in / 300 out`), from `ModelCost`'s fields as JSON:
the command line shows a status's JSON without building its models."""

from collections.abc import Iterable, Mapping
from typing import Any

from vocabulary.amounts import PRICES_SETTING

CostJson = Mapping[str, Any]


def total(costs: Iterable[CostJson]) -> dict[str, Any]:
    """The costs together, as `ModelCost`'s fields."""
    summed: dict[str, Any] = {
        "input_tokens": 0, "output_tokens": 0, "dollars": 0.0, "unpriced_tokens": 0,
    }  # fmt: skip
    models: set[str] = set()
    for cost in costs:
        for name in summed:
            summed[name] += cost.get(name, 0)
        models.update(cost.get("unpriced_models") or [])
    return summed | {"unpriced_models": sorted(models)}


def split(cost: CostJson) -> str:
    """`1,200 in / 300 out`."""
    return f"{cost.get('input_tokens', 0):,} in / {cost.get('output_tokens', 0):,} out"


def short(cost: CostJson) -> str:
    """`$0.0123` for a table cell: `unknown` with no price at all, `$0.0123+?` with some."""
    dollars = cost.get("dollars", 0.0)
    if not cost.get("unpriced_tokens"):
        return money(dollars)
    return "unknown" if not dollars else f"{money(dollars)}+?"


def text(cost: CostJson, cap: float | None = None) -> str:
    """`$0.0123` (`of $5.00`, the cap), saying so when some tokens had no price."""
    dollars, unpriced = cost.get("dollars", 0.0), cost.get("unpriced_tokens", 0)
    spent = money(dollars) + (f" of {money(cap)}" if cap is not None else "")
    if not unpriced:
        return spent
    models = ", ".join(cost.get("unpriced_models") or []) or "a model"
    missing = f"{unpriced:,} tokens of {models} with no price in {PRICES_SETTING}"
    tokens = cost.get("input_tokens", 0) + cost.get("output_tokens", 0)
    if unpriced >= tokens and not dollars and cap is None:
        return f"unknown ({missing})"
    return f"{spent} + {missing}"


def money(dollars: float) -> str:
    """`$12.30`, or `$0.0042` below ten cents, where cents would round a call's cost away."""
    if dollars >= 0.1 or dollars == 0:
        return f"${dollars:,.2f}"
    return f"${dollars:.4f}"
