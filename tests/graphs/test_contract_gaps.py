"""A changed file is checked against the plan's contracts, as far as the ticket names them."""

from pathlib import Path
from typing import cast

from graphs.implementation.diagnose.contracts import contract_gaps, promised
from graphs.implementation.diagnose.feedback import worker_feedback
from graphs.implementation.state import ImplementationState
from graphs.schemas import Contract, FileChange, Plan, Requirements, TicketContext

CART = "shop/cart.py"
CONTRACT = Contract(
    path=CART, signature="def total(self, discount: float = 0) -> float", behaviour="Sum."
)
SIDESTEP = (
    "class Cart:\n    def total(self) -> float:\n        return 0.0\n\n"
    "    def total_with_discount(self, discount: float = 0) -> float:\n        return 0.0\n"
)
KEPT = "class Cart:\n    def total(self, discount=0):\n        return 100.0 - discount\n"
# cart-discount: `discount` taken and range-checked, the total returned undiscounted
CHECKED_ONLY = (
    "class Cart:\n    def total(self, discount: float = 0) -> float:\n"
    "        total = sum(self.prices)\n"
    "        if discount < 0 or discount > 100:\n"
    "            raise ValueError('Discount must be between 0 and 100.')\n"
    "        assert isinstance(discount, float)\n"
    "        return round(total, 2)\n"
)
WORDS = {"total", "discount", "cart"}


def test_signatures_of_every_spelling_are_read() -> None:
    def read(signature: str) -> tuple[str, list[str]] | None:
        return promised(Contract(path=CART, signature=signature, behaviour=""))

    assert read("def total(self, discount: float = 0) -> float") == ("total", ["discount"])
    assert read("Cart.total(discount=0)") == ("total", ["discount"])
    assert read("async def fetch(url, *, retries: int = 3):") == ("fetch", ["url", "retries"])
    assert read("class Cart") is None
    assert read("total(discount=)") is None


def test_a_missing_parameter_or_function_the_ticket_names_is_a_gap() -> None:
    assert contract_gaps([CONTRACT], CART, SIDESTEP, WORDS) == [
        "`total` does not take `discount`; the contract is"
        " `def total(self, discount: float = 0) -> float`."
    ]
    assert contract_gaps([CONTRACT], CART, KEPT, WORDS) == []
    gone = "class Cart:\n    def add(self):\n        pass\n"
    assert contract_gaps([CONTRACT], CART, gone, WORDS) == [
        "`total` is not defined; the contract is `def total(self, discount: float = 0) -> float`."
    ]


def test_a_parameter_read_only_to_check_it_is_a_gap() -> None:
    assert contract_gaps([CONTRACT], CART, CHECKED_ONLY, WORDS) == [
        "`total` takes `discount` but never uses it beyond checking: make what `total` does"
        " depend on it, as the contract says: `def total(self, discount: float = 0) -> float`:"
        " Sum."
    ]
    used = CHECKED_ONLY.replace("round(total, 2)", "round(total * (1 - discount / 100), 2)")
    assert contract_gaps([CONTRACT], CART, used, WORDS) == []
    passed_on = CHECKED_ONLY.replace("round(total, 2)", "discounted(total, discount)")
    assert contract_gaps([CONTRACT], CART, passed_on, WORDS) == []
    # a parameter that decides with other values whether to raise is used
    strict = CHECKED_ONLY.replace("discount < 0 or", "self.strict and discount < 0 or")
    assert contract_gaps([CONTRACT], CART, strict, WORDS) == []


def test_a_parameter_the_original_already_left_unused_is_not_a_gap() -> None:
    original = "class Cart:\n    def total(self, discount=0):\n        return 0.0\n"
    assert contract_gaps([CONTRACT], CART, original, WORDS, original) == []
    assert contract_gaps([CONTRACT], CART, original, WORDS) != []


def test_what_the_ticket_does_not_name_or_another_file_is_not_checked() -> None:
    assert contract_gaps([CONTRACT], CART, SIDESTEP, {"total"}) == []  # `discount`: the plan's
    assert contract_gaps([CONTRACT], CART, SIDESTEP, {"discount"}) == []
    assert contract_gaps([CONTRACT], "shop/other.py", SIDESTEP, WORDS) == []
    assert contract_gaps([CONTRACT], CART, "def (:\n", WORDS) == []  # the gate's business


def test_the_worker_is_told_the_gap_after_the_review(tmp_path: Path) -> None:
    ticket = TicketContext(
        key="CART-1",
        summary="Cart total: apply a discount",
        description="`total(discount=10)` takes 10% off.",
    )
    plan = Plan(version=1, summary="s", files=[], test_plan=[], risks=[], markdown="# Plan")
    plan = plan.model_copy(update={"contracts": [CONTRACT]})
    state = {
        "ticket": ticket,
        "requirements": Requirements(requirements=["r"], acceptance_criteria=["c"]),
        "plan": plan,
        "repo_dir": tmp_path,
        "files": {CART: FileChange(path=CART, content=SIDESTEP)},
        "revision": 2,
    }
    feedback = worker_feedback(cast(ImplementationState, state), CART)
    assert "does not keep the plan's contracts yet" in feedback
    assert "`total` does not take `discount`" in feedback
    state["files"] = {CART: FileChange(path=CART, content=KEPT)}
    assert "contracts" not in worker_feedback(cast(ImplementationState, state), CART)
    del state["files"]  # the first version: nothing changed yet, nothing to say
    assert "contracts" not in worker_feedback(cast(ImplementationState, state), CART)
