"""Seeds per call: a run repeats from its seed, and a prompt sent again samples anew."""

from typing import Any

from langchain_core.messages import HumanMessage, SystemMessage

from graphs.models import make_chat_model
from llm.call_seeds import SEED_BITS, CallSeeds
from tests.localmodel.test_chat import stub


def test_a_prompt_sent_again_gets_another_seed() -> None:
    seeds = CallSeeds()
    first, second = seeds.seed(2, "Fix it.", 0.7), seeds.seed(2, "Fix it.", 0.7)
    assert first != second
    assert all(0 <= seed < 1 << SEED_BITS for seed in (first, second))


def test_the_same_run_seed_and_prompts_give_the_same_seeds() -> None:
    sent = [("Plan it.", 0.0), ("Fix it.", 0.7), ("Fix it.", 0.7), ("Plan it.", 0.0)]
    one, two = CallSeeds(), CallSeeds()
    assert [one.seed(2, p, t) for p, t in sent] == [two.seed(2, p, t) for p, t in sent]
    assert CallSeeds().seed(3, "Fix it.", 0.7) != CallSeeds().seed(2, "Fix it.", 0.7)
    assert CallSeeds().seed(2, "Fix it.", 0.2) != CallSeeds().seed(2, "Fix it.", 0.7)


def test_the_count_of_a_forgotten_prompt_starts_again() -> None:
    seeds = CallSeeds(remembered=2)
    first = seeds.seed(1, "a", None)
    seeds.seed(1, "b", None)
    seeds.seed(1, "c", None)  # "a" is the oldest and is forgotten
    assert seeds.seed(1, "a", None) == first


async def test_the_server_gets_a_new_seed_each_time_the_same_prompt_is_sent() -> None:
    bodies: list[dict[str, Any]] = []
    model = stub(bodies).model_copy(update={"seed": 2, "temperature": 0.7})
    prompt = [SystemMessage(content="task: review\nReview."), HumanMessage(content="The diff.")]
    await model.ainvoke(prompt)
    await model.ainvoke(prompt)
    assert bodies[0]["seed"] != bodies[1]["seed"]


async def test_without_a_run_seed_the_server_draws_its_own() -> None:
    bodies: list[dict[str, Any]] = []
    await stub(bodies).ainvoke([SystemMessage(content="task: review\nReview.")])
    assert "seed" not in bodies[0]


def test_the_openai_provider_seeds_each_request_from_the_run_seed() -> None:
    model = make_chat_model("openai", api_key="k", base_url="http://openai.test/v1", seed=2)
    prompt = [HumanMessage(content="Fix it.")]
    first = model._get_request_payload(prompt)["seed"]  # type: ignore[attr-defined]
    assert first != model._get_request_payload(prompt)["seed"]  # type: ignore[attr-defined]
    unseeded = make_chat_model("openai", api_key="k", base_url="http://openai.test/v1")
    assert unseeded._get_request_payload(prompt).get("seed") is None  # type: ignore[attr-defined]
