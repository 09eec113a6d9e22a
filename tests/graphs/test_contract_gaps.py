"""A changed file is checked against the plan's contracts, as far as the ticket names them."""

from pathlib import Path
from typing import cast

from graphs.implementation.diagnose.contracts import contract_gaps, promised
from graphs.implementation.diagnose.feedback import worker_feedback
from graphs.implementation.state import ImplementationState
from graphs.schemas import Contract, FileChange, Plan, Requirements, TicketContext

TRIP = "travel/trip.py"
SIGNATURE = "def fare(self, luggage: float = 0) -> float"
CONTRACT = Contract(path=TRIP, signature=SIGNATURE, behaviour="Base fare plus luggage.")
SIDESTEP = (
    "class Trip:\n    def fare(self) -> float:\n        return 0.0\n\n"
    "    def fare_with_luggage(self, luggage: float = 0) -> float:\n        return 0.0\n"
)
KEPT = "class Trip:\n    def fare(self, luggage=0):\n        return 4.5 + luggage\n"
# `luggage` taken and range-checked, the fare returned without it
CHECKED_ONLY = (
    "class Trip:\n    def fare(self, luggage: float = 0) -> float:\n"
    "        fare = self.rate * self.distance\n"
    "        if luggage < 0 or luggage > 500:\n"
    "            raise ValueError('Luggage must be between 0 and 500.')\n"
    "        assert isinstance(luggage, float)\n"
    "        return round(fare, 2)\n"
)
WORDS = {"fare", "luggage", "trip"}


def test_signatures_of_every_spelling_are_read() -> None:
    def read(signature: str) -> tuple[str, list[str]] | None:
        return promised(Contract(path=TRIP, signature=signature, behaviour=""))

    assert read(SIGNATURE) == ("fare", ["luggage"])
    assert read("Trip.fare(luggage=0)") == ("fare", ["luggage"])
    assert read("async def fetch(url, *, retries: int = 3):") == ("fetch", ["url", "retries"])
    assert read("class Trip") is None
    assert read("fare(luggage=)") is None


def test_a_missing_parameter_or_function_the_ticket_names_is_a_gap() -> None:
    assert contract_gaps([CONTRACT], TRIP, SIDESTEP, WORDS) == [
        "`fare` does not take `luggage`; the contract is"
        " `def fare(self, luggage: float = 0) -> float`."
    ]
    assert contract_gaps([CONTRACT], TRIP, KEPT, WORDS) == []
    gone = "class Trip:\n    def book(self):\n        pass\n"
    assert contract_gaps([CONTRACT], TRIP, gone, WORDS) == [
        "`fare` is not defined; the contract is `def fare(self, luggage: float = 0) -> float`."
    ]


def test_a_parameter_read_only_to_check_it_is_a_gap() -> None:
    assert contract_gaps([CONTRACT], TRIP, CHECKED_ONLY, WORDS) == [
        "`fare` takes `luggage` but never uses it beyond checking: make what `fare`"
        " does depend on it, as the contract says:"
        " `def fare(self, luggage: float = 0) -> float`: Base fare plus luggage."
    ]
    used = CHECKED_ONLY.replace("round(fare, 2)", "round(fare + luggage / 100, 2)")
    assert contract_gaps([CONTRACT], TRIP, used, WORDS) == []
    passed_on = CHECKED_ONLY.replace("round(fare, 2)", "with_luggage(fare, luggage)")
    assert contract_gaps([CONTRACT], TRIP, passed_on, WORDS) == []
    # a parameter that decides with other values whether to raise is used
    strict = CHECKED_ONLY.replace("luggage < 0 or", "self.sleeper and luggage < 0 or")
    assert contract_gaps([CONTRACT], TRIP, strict, WORDS) == []


def test_a_parameter_the_original_already_left_unused_is_not_a_gap() -> None:
    original = "class Trip:\n    def fare(self, luggage=0):\n        return 0.0\n"
    assert contract_gaps([CONTRACT], TRIP, original, WORDS, original) == []
    assert contract_gaps([CONTRACT], TRIP, original, WORDS) != []


def test_what_the_ticket_does_not_name_or_another_file_is_not_checked() -> None:
    assert contract_gaps([CONTRACT], TRIP, SIDESTEP, {"fare"}) == []  # `luggage`: the plan's
    assert contract_gaps([CONTRACT], TRIP, SIDESTEP, {"luggage"}) == []
    assert contract_gaps([CONTRACT], "travel/other.py", SIDESTEP, WORDS) == []
    assert contract_gaps([CONTRACT], TRIP, "def (:\n", WORDS) == []  # the gate's business


def test_the_worker_is_told_the_gap_after_the_review(tmp_path: Path) -> None:
    ticket = TicketContext(
        key="TRIP-1",
        summary="Trip fares: add luggage",
        description="`fare(luggage=20)` adds 0.5 for each kilo of luggage.",
    )
    plan = Plan(version=1, summary="s", files=[], test_plan=[], risks=[], markdown="# Plan")
    plan = plan.model_copy(update={"contracts": [CONTRACT]})
    state = {
        "ticket": ticket,
        "requirements": Requirements(requirements=["r"], acceptance_criteria=["c"]),
        "plan": plan,
        "repo_dir": tmp_path,
        "files": {TRIP: FileChange(path=TRIP, content=SIDESTEP)},
        "revision": 2,
    }
    feedback = worker_feedback(cast(ImplementationState, state), TRIP)
    assert "does not keep the plan's contracts yet" in feedback
    assert "`fare` does not take `luggage`" in feedback
    state["files"] = {TRIP: FileChange(path=TRIP, content=KEPT)}
    assert "contracts" not in worker_feedback(cast(ImplementationState, state), TRIP)
    del state["files"]  # the first version: nothing changed yet, nothing to say
    assert "contracts" not in worker_feedback(cast(ImplementationState, state), TRIP)
