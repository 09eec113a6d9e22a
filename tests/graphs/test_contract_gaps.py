"""A changed file is checked against the plan's contracts, as far as the ticket names them."""

from pathlib import Path
from typing import cast

from graphs.implementation.diagnose.contracts import contract_gaps, promised
from graphs.implementation.diagnose.feedback import worker_feedback
from graphs.implementation.state import ImplementationState
from graphs.schemas import Contract, FileChange, Plan, Requirements, TicketContext

PARCEL = "post/parcel.py"
SIGNATURE = "def postage(self, insurance: float = 0) -> float"
CONTRACT = Contract(path=PARCEL, signature=SIGNATURE, behaviour="Rate plus cover.")
SIDESTEP = (
    "class Parcel:\n    def postage(self) -> float:\n        return 0.0\n\n"
    "    def postage_with_insurance(self, insurance: float = 0) -> float:\n        return 0.0\n"
)
KEPT = "class Parcel:\n    def postage(self, insurance=0):\n        return 4.5 + insurance\n"
# `insurance` taken and range-checked, the postage returned without it
CHECKED_ONLY = (
    "class Parcel:\n    def postage(self, insurance: float = 0) -> float:\n"
    "        postage = self.rate * self.weight\n"
    "        if insurance < 0 or insurance > 500:\n"
    "            raise ValueError('Insurance must be between 0 and 500.')\n"
    "        assert isinstance(insurance, float)\n"
    "        return round(postage, 2)\n"
)
WORDS = {"postage", "insurance", "parcel"}


def test_signatures_of_every_spelling_are_read() -> None:
    def read(signature: str) -> tuple[str, list[str]] | None:
        return promised(Contract(path=PARCEL, signature=signature, behaviour=""))

    assert read(SIGNATURE) == ("postage", ["insurance"])
    assert read("Parcel.postage(insurance=0)") == ("postage", ["insurance"])
    assert read("async def fetch(url, *, retries: int = 3):") == ("fetch", ["url", "retries"])
    assert read("class Parcel") is None
    assert read("postage(insurance=)") is None


def test_a_missing_parameter_or_function_the_ticket_names_is_a_gap() -> None:
    assert contract_gaps([CONTRACT], PARCEL, SIDESTEP, WORDS) == [
        "`postage` does not take `insurance`; the contract is"
        " `def postage(self, insurance: float = 0) -> float`."
    ]
    assert contract_gaps([CONTRACT], PARCEL, KEPT, WORDS) == []
    gone = "class Parcel:\n    def weigh(self):\n        pass\n"
    assert contract_gaps([CONTRACT], PARCEL, gone, WORDS) == [
        "`postage` is not defined; the contract is"
        " `def postage(self, insurance: float = 0) -> float`."
    ]


def test_a_parameter_read_only_to_check_it_is_a_gap() -> None:
    assert contract_gaps([CONTRACT], PARCEL, CHECKED_ONLY, WORDS) == [
        "`postage` takes `insurance` but never uses it beyond checking: make what `postage`"
        " does depend on it, as the contract says:"
        " `def postage(self, insurance: float = 0) -> float`: Rate plus cover."
    ]
    used = CHECKED_ONLY.replace("round(postage, 2)", "round(postage + insurance / 100, 2)")
    assert contract_gaps([CONTRACT], PARCEL, used, WORDS) == []
    passed_on = CHECKED_ONLY.replace("round(postage, 2)", "insured(postage, insurance)")
    assert contract_gaps([CONTRACT], PARCEL, passed_on, WORDS) == []
    # a parameter that decides with other values whether to raise is used
    strict = CHECKED_ONLY.replace("insurance < 0 or", "self.tracked and insurance < 0 or")
    assert contract_gaps([CONTRACT], PARCEL, strict, WORDS) == []


def test_a_parameter_the_original_already_left_unused_is_not_a_gap() -> None:
    original = "class Parcel:\n    def postage(self, insurance=0):\n        return 0.0\n"
    assert contract_gaps([CONTRACT], PARCEL, original, WORDS, original) == []
    assert contract_gaps([CONTRACT], PARCEL, original, WORDS) != []


def test_what_the_ticket_does_not_name_or_another_file_is_not_checked() -> None:
    assert contract_gaps([CONTRACT], PARCEL, SIDESTEP, {"postage"}) == []  # `insurance`: the plan's
    assert contract_gaps([CONTRACT], PARCEL, SIDESTEP, {"insurance"}) == []
    assert contract_gaps([CONTRACT], "post/other.py", SIDESTEP, WORDS) == []
    assert contract_gaps([CONTRACT], PARCEL, "def (:\n", WORDS) == []  # the gate's business


def test_the_worker_is_told_the_gap_after_the_review(tmp_path: Path) -> None:
    ticket = TicketContext(
        key="POST-1",
        summary="Parcel postage: add insurance",
        description="`postage(insurance=200)` adds 1% of the insured value.",
    )
    plan = Plan(version=1, summary="s", files=[], test_plan=[], risks=[], markdown="# Plan")
    plan = plan.model_copy(update={"contracts": [CONTRACT]})
    state = {
        "ticket": ticket,
        "requirements": Requirements(requirements=["r"], acceptance_criteria=["c"]),
        "plan": plan,
        "repo_dir": tmp_path,
        "files": {PARCEL: FileChange(path=PARCEL, content=SIDESTEP)},
        "revision": 2,
    }
    feedback = worker_feedback(cast(ImplementationState, state), PARCEL)
    assert "does not keep the plan's contracts yet" in feedback
    assert "`postage` does not take `insurance`" in feedback
    state["files"] = {PARCEL: FileChange(path=PARCEL, content=KEPT)}
    assert "contracts" not in worker_feedback(cast(ImplementationState, state), PARCEL)
    del state["files"]  # the first version: nothing changed yet, nothing to say
    assert "contracts" not in worker_feedback(cast(ImplementationState, state), PARCEL)
