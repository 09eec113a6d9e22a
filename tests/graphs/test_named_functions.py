"""An answer that adds a function beside the one the ticket names, leaving that one as it was."""

from pathlib import Path
from typing import Any

from langchain_core.messages import BaseMessage

from graphs.implementation import implement_plan
from graphs.implementation.worker.named_functions import added_beside, beside_note, named_in
from graphs.schemas import TicketContext
from harness.local_tester import LocalTester
from tests.graphs.test_convergence import worker_prompts
from tests.graphs.test_implementation_loop import OPS, Reply, file_answer, plan_for, team, verdict

LENGTHS = """UNITS = {"mm": 1, "cm": 10, "m": 1000}


def _part(number, unit):
    return int(number) * UNITS[unit]


def parse_length(text):
    return sum(_part(n, u) for n, u in split(text))
"""
TICKET = (
    "parse_length should understand kilometres\n`survey.lengths.parse_length` turns `1m30cm`"
    ' into millimetres.\n`parse_length("7km")` returns `7000000`. Unknown units raise ValueError.'
)
KM_BESIDE = (
    LENGTHS
    + """

def parse_length_with_km(text):
    return parse_length(text.replace("km", "m")) * 1000
"""
)


def test_the_names_a_ticket_calls_or_quotes_as_code_each_once() -> None:
    assert named_in(TICKET) == ["parse_length"]  # not prose, numbers or `1m30cm`
    assert named_in("`paint.colours.blend(value)` and `Lamp.lumens`") == [
        "blend",
        "lumens",
    ]


def test_a_function_added_beside_the_named_one_is_found() -> None:
    assert added_beside(TICKET, LENGTHS, KM_BESIDE) == (
        ["parse_length"],
        ["parse_length_with_km"],
    )


def test_a_new_constant_beside_the_new_function_is_found_too() -> None:
    kilometre = "KILOMETRE = 1000000\n\n" + KM_BESIDE
    assert added_beside(TICKET, LENGTHS, kilometre)[0] == ["parse_length"]


def test_a_changed_import_the_named_function_reads_stands() -> None:
    before = "from re import compile as split\n" + LENGTHS
    after = "from shlex import split\n" + KM_BESIDE
    assert added_beside(TICKET, before, after) == ([], [])


def test_a_changed_named_function_stands() -> None:
    changed = KM_BESIDE.replace("sum(_part", "total(_part")
    assert added_beside(TICKET, LENGTHS, changed) == ([], [])


def test_a_changed_constant_the_named_function_reads_stands() -> None:
    with_km = KM_BESIDE.replace('"m": 1000}', '"m": 1000, "km": 1000000}')
    assert added_beside(TICKET, LENGTHS, with_km) == ([], [])


def test_a_changed_function_the_named_one_calls_stands() -> None:
    helper = KM_BESIDE.replace("int(number) * UNITS[unit]", "_km(number, unit)")
    assert added_beside(TICKET, LENGTHS, helper) == ([], [])


def test_nothing_is_found_when_the_ticket_names_no_function_of_the_file() -> None:
    assert added_beside("Add a `--json` option.", LENGTHS, KM_BESIDE) == ([], [])


def test_an_answer_that_does_not_parse_is_left_to_the_syntax_gate() -> None:
    assert added_beside(TICKET, LENGTHS, KM_BESIDE + "def broken(:\n") == ([], [])


def test_a_method_left_as_it_was_beside_a_new_one_is_found() -> None:
    before = "class Lamp:\n    def lumens(self):\n        return self.watts * 12\n"
    after = before + "\n    def lumens_at(self, level):\n        return self.watts * level\n"
    ticket = "`Lamp.lumens()` should use the dimmer's level."
    assert added_beside(ticket, before, after) == (["lumens"], ["lumens_at"])
    levels = after.replace("class Lamp:\n", "class Lamp:\n    LEVELS = {}\n")
    assert added_beside(ticket, before, levels)[0] == ["lumens"]  # an attribute it does not read
    watts = after.replace("class Lamp:\n", "class Lamp:\n    watts = 0\n")
    assert added_beside(ticket, before, watts) == ([], [])  # the attribute it reads changed


async def test_a_worker_that_adds_a_function_beside_the_named_one_is_asked_again(
    tiny_repo: Path, tmp_path: Path
) -> None:
    tester = LocalTester(tiny_repo, tmp_path / "runs", "python -m pytest -q")
    original = (tiny_repo / OPS).read_text()
    beside = original + "\n\ndef add_three(a, b, c):\n    return a + b + c\n"
    changed = original.replace("return a + b", "return a + b + c").replace(
        "b: int)", "b: int, c: int = 0)"
    )
    versions = iter([beside, changed])
    ticket = TicketContext(
        key="CALC-8",
        summary="add() should take an optional third number",
        description="`add(1, 2, 3)` returns 6.",
        acceptance_criteria="`add(1, 2, 3) == 6` and `add(1, 2) == 3`",
    )

    def handle(task: str, inputs: dict[str, Any], messages: list[BaseMessage]) -> Reply:
        return verdict(True) if task == "review" else file_answer(OPS, next(versions))

    model = team(handle)
    result = await implement_plan(model, tiny_repo, ticket, plan_for(OPS), None, tester=tester)
    prompts = worker_prompts(model, OPS)
    assert len(prompts) == 2, "the answer beside `add` was not asked for again"
    told = beside_note(["add"], ["add_three"])
    assert told not in prompts[0] and told in prompts[1]
    assert {c.path: c.content for c in result.changes} == {OPS: changed}


def test_a_new_function_the_ticket_asks_for_is_not_beside() -> None:
    ticket = TICKET + " Add `km_in(text)` too."
    with_km_in = LENGTHS + "\n\ndef km_in(text):\n    return parse_length(text) // 1000000\n"
    assert added_beside(ticket, LENGTHS, with_km_in) == ([], [])
