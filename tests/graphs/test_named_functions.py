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

DURATIONS = """UNITS = {"s": 1, "m": 60, "h": 3600}


def _part(number, unit):
    return int(number) * UNITS[unit]


def parse_duration(text):
    return sum(_part(n, u) for n, u in split(text))
"""
TICKET = (
    "parse_duration should understand days\n`timefmt.durations.parse_duration` turns `1h30m`"
    ' into seconds.\n`parse_duration("7d")` returns `604800`. Unknown units raise ValueError.'
)
DAYS_BESIDE = (
    DURATIONS
    + """

def parse_duration_with_days(text):
    return parse_duration(text.replace("d", "h")) * 24
"""
)


def test_the_names_a_ticket_calls_or_quotes_as_code_each_once() -> None:
    assert named_in(TICKET) == ["parse_duration"]  # not prose, numbers or `1h30m`
    assert named_in("`units.temperature.convert(value)` and `Invoice.total`") == [
        "convert",
        "total",
    ]


def test_a_function_added_beside_the_named_one_is_found() -> None:
    assert added_beside(TICKET, DURATIONS, DAYS_BESIDE) == (
        ["parse_duration"],
        ["parse_duration_with_days"],
    )


def test_a_new_constant_beside_the_new_function_is_found_too() -> None:
    kelvin = "KELVIN = 273.15\n\n" + DAYS_BESIDE
    assert added_beside(TICKET, DURATIONS, kelvin)[0] == ["parse_duration"]


def test_a_changed_import_the_named_function_reads_stands() -> None:
    before = "from re import compile as split\n" + DURATIONS
    after = "from shlex import split\n" + DAYS_BESIDE
    assert added_beside(TICKET, before, after) == ([], [])


def test_a_changed_named_function_stands() -> None:
    changed = DAYS_BESIDE.replace("sum(_part", "total(_part")
    assert added_beside(TICKET, DURATIONS, changed) == ([], [])


def test_a_changed_constant_the_named_function_reads_stands() -> None:
    with_days = DAYS_BESIDE.replace('"h": 3600}', '"h": 3600, "d": 86400}')
    assert added_beside(TICKET, DURATIONS, with_days) == ([], [])


def test_a_changed_function_the_named_one_calls_stands() -> None:
    helper = DAYS_BESIDE.replace("int(number) * UNITS[unit]", "_days(number, unit)")
    assert added_beside(TICKET, DURATIONS, helper) == ([], [])


def test_nothing_is_found_when_the_ticket_names_no_function_of_the_file() -> None:
    assert added_beside("Add a `--json` option.", DURATIONS, DAYS_BESIDE) == ([], [])


def test_an_answer_that_does_not_parse_is_left_to_the_syntax_gate() -> None:
    assert added_beside(TICKET, DURATIONS, DAYS_BESIDE + "def broken(:\n") == ([], [])


def test_a_method_left_as_it_was_beside_a_new_one_is_found() -> None:
    before = "class Invoice:\n    def total(self):\n        return self.net * 1.2\n"
    after = before + "\n    def total_with_rate(self, rate):\n        return self.net * rate\n"
    ticket = "`Invoice.total()` should use the customer's tax rate."
    assert added_beside(ticket, before, after) == (["total"], ["total_with_rate"])
    rates = after.replace("class Invoice:\n", "class Invoice:\n    RATES = {}\n")
    assert added_beside(ticket, before, rates)[0] == ["total"]  # an attribute it does not read
    net = after.replace("class Invoice:\n", "class Invoice:\n    net = 0\n")
    assert added_beside(ticket, before, net) == ([], [])  # the attribute it reads changed


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
    ticket = TICKET + " Add `days_in(text)` too."
    with_days_in = DURATIONS + "\n\ndef days_in(text):\n    return parse_duration(text) // 86400\n"
    assert added_beside(ticket, DURATIONS, with_days_in) == ([], [])
