"""Model prices: the setting read or refused by name, the arithmetic, unpriced tokens said."""

import pytest
from pydantic import ValidationError

from activities.costing import CostInterceptor
from activities.pricing import cost_of, priced_model
from config import Settings
from llm.cost import ModelCost, money
from llm.metering import TokenMeter
from vocabulary.prices import ModelPrice, PricesError, parse_prices

MINI = '{"gpt-4o-mini": {"input": 0.15, "output": 0.60}}'


def test_unset_prices_leave_the_local_and_offline_models_free() -> None:
    prices = parse_prices("")
    assert prices["local"] == prices["offline"] == ModelPrice(input=0, output=0)
    assert "gpt-4o-mini" not in prices


def test_a_price_is_per_million_tokens_in_and_out() -> None:
    cost = cost_of("gpt-4o-mini", 2_000_000, 500_000, parse_prices(MINI))
    assert cost.dollars == pytest.approx(2 * 0.15 + 0.5 * 0.60)
    assert (cost.input_tokens, cost.output_tokens, cost.unpriced_tokens) == (2_000_000, 500_000, 0)
    assert cost.text() == "$0.60"


def test_a_model_with_no_price_says_so_instead_of_costing_nothing() -> None:
    cost = cost_of("gpt-5", 1_000, 200, parse_prices(MINI))
    assert cost.dollars == 0 and cost.unpriced_tokens == 1_200
    missing = "1,200 tokens of gpt-5 with no price in TICKETSMITH_MODEL_PRICES"
    assert cost.text() == f"unknown ({missing})"
    both = cost.plus(cost_of("gpt-4o-mini", 10_000, 1_000, parse_prices(MINI)))
    assert both.text().startswith("$0.0021 + 1,200 tokens of gpt-5")
    assert both.split() == "11,000 in / 1,200 out"


def test_a_phase_cost_is_what_was_added_since_the_phase_began() -> None:
    prices = parse_prices(MINI)
    before = cost_of("gpt-4o-mini", 1_000_000, 0, prices)
    after = before.plus(cost_of("gpt-4o-mini", 0, 1_000_000, prices))
    phase = after.since(before)
    assert (phase.input_tokens, phase.output_tokens) == (0, 1_000_000)
    assert phase.dollars == pytest.approx(0.60)
    assert after.since(ModelCost()) == after


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("{gpt", "TICKETSMITH_MODEL_PRICES is not JSON"),
        ('["gpt-4o-mini"]', "TICKETSMITH_MODEL_PRICES must be a JSON object by model name"),
        ('{"m": {"input": -1, "output": 1}}', "the price of 'm' is wrong (input: "),
        ('{"m": {"input": 1}}', "the price of 'm' is wrong (output: Field required)"),
        ('{"m": 3}', "the price of 'm' is wrong"),
    ],
)
def test_a_bad_prices_setting_is_refused_naming_it(text: str, said: str) -> None:
    with pytest.raises(PricesError) as bad:
        parse_prices(text)
    assert said in str(bad.value)
    assert "like {" in str(bad.value)  # and shows what to write


def test_the_worker_settings_refuse_bad_prices_at_start() -> None:
    with pytest.raises(ValidationError, match="TICKETSMITH_MODEL_PRICES is not JSON"):
        Settings(model_prices="{gpt")
    settings = Settings(model_prices=MINI, model_provider="openai", openai_model="gpt-4o-mini")
    assert priced_model(settings) == "gpt-4o-mini"
    assert settings.prices()["gpt-4o-mini"] == ModelPrice(input=0.15, output=0.60)
    assert priced_model(Settings(model_provider="offline")) == "offline"


def test_an_activity_cost_splits_its_tokens_as_its_calls_were_counted() -> None:
    costs = CostInterceptor("gpt-4o-mini", parse_prices(MINI))
    meter = TokenMeter()
    meter.record(900, 100)
    assert costs.cost(1_000, meter).split() == "900 in / 100 out"
    # A resumed attempt reports earlier attempts' tokens too: split in the same proportion.
    assert costs.cost(2_000, meter).split() == "1,800 in / 200 out"
    # Nothing counted in this attempt: all output, the dearer kind.
    assert costs.cost(500, TokenMeter()).split() == "0 in / 500 out"


def test_money_keeps_a_small_cost_visible() -> None:
    assert money(0) == "$0.00"
    assert money(0.00042) == "$0.0004"
    assert money(1234.5) == "$1,234.50"
