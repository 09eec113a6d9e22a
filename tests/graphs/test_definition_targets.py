"""A worker that first chooses the definitions a change touches, then is shown only those."""

from pathlib import Path

from graphs.implementation import implement_plan
from graphs.implementation.worker.targets import (
    definitions_of,
    named_in,
    only_targets,
    others_note,
    shown_targets,
)
from graphs.models import ScriptedChatModel
from graphs.schemas import Plan, PlannedFile, TicketContext
from llm.prompting import read_task

QA_PASS = '{"passed": true, "summary": "Matches the plan.", "fixes": []}'
SHELF = '''"""A shelf of jars."""

import math

LIMIT = 12


def count(jars: list[int]) -> int:
    """How many jars there are."""
    return len(jars)


def heaviest(jars: list[int]) -> int:
    return max(jars)


class Shelf:
    """Jars in a row."""

    def __init__(self, jars: list[int]) -> None:
        self.jars = jars

    def full(self) -> bool:
        return len(self.jars) >= LIMIT

    def weight(self) -> float:
        return math.fsum(self.jars)
'''
FIXED_FULL = "class Shelf:\n    def full(self) -> bool:\n        return len(self.jars) > LIMIT\n"


def test_a_modules_definitions_are_its_functions_classes_methods_and_constants() -> None:
    found = definitions_of(SHELF)
    assert [d.name for d in found] == [
        "LIMIT", "count", "heaviest", "Shelf", "Shelf.__init__", "Shelf.full", "Shelf.weight",
    ]  # fmt: skip
    assert found[1].outline == "def count(jars: list[int]) -> int: How many jars there are."
    assert found[2].outline == "def heaviest(jars: list[int]) -> int:"


def test_what_a_text_names_as_code_is_found_and_plain_words_are_not() -> None:
    found = definitions_of(SHELF)
    text = "Shelf.full() is wrong at the limit; count the jars. LIMIT stays 12."
    assert named_in(text, found) == ["Shelf.full", "LIMIT"]  # a capitalised word is a word
    assert named_in("`count` returns one too many", found) == ["count"]
    trace = 'File "calc/shelf.py", line 14, in heaviest\n    return max(jars)'
    assert named_in(trace, found) == ["heaviest"]
    assert named_in("the heaviest jar weighs too much", found) == []


def test_the_chosen_definitions_are_shown_whole_and_methods_under_their_class_once() -> None:
    found = definitions_of(SHELF)
    window = shown_targets(SHELF, found, ["Shelf.weight", "count", "Shelf.full"])
    assert window is not None
    assert window.text.count("class Shelf:") == 1
    assert "return len(jars)" in window.text and "return math.fsum(self.jars)" in window.text
    assert "max(jars)" not in window.text and "self.jars = jars" not in window.text
    assert shown_targets(SHELF, found, ["nowhere"]) is None
    note = others_note(found, ["count"], 27)
    assert "def heaviest(jars: list[int]) -> int:" in note and "def count" not in note


def test_definitions_the_answer_was_not_asked_to_change_are_left_out() -> None:
    found = definitions_of(SHELF)
    answer = (
        "def count(jars: list[int]) -> int:\n    return 0\n\n\n"
        "def heaviest(jars: list[int]) -> int:\n    return 1\n\n\n"
        "def lightest(jars: list[int]) -> int:\n    return min(jars)\n\n\n"
        "class Shelf:\n    def full(self) -> bool:\n        return False\n\n"
        "    def weight(self) -> float:\n        return 0.0\n"
    )
    kept, dropped = only_targets(answer, found, ["count", "Shelf.full"])
    assert dropped == ["heaviest", "Shelf.weight"]
    assert "return 0\n" in kept and "min(jars)" in kept and "return False" in kept
    assert "return 1" not in kept and "return 0.0" not in kept


async def test_the_worker_is_shown_what_it_chose_and_changes_only_that(
    tiny_repo: Path, ticket: TicketContext
) -> None:
    (tiny_repo / "calc/shelf.py").write_text(SHELF)
    planned = PlannedFile(path="calc/shelf.py", action="modify", purpose="Full past the limit.")
    plan = Plan(version=1, summary="Full.", files=[planned], test_plan=[], risks=[], markdown="")
    rewritten = FIXED_FULL + "\n\ndef count(jars: list[int]) -> int:\n    return 0\n"
    model = ScriptedChatModel(
        ['{"change": ["Shelf.full"]}', f"calc/shelf.py\n```python\n{rewritten}```", QA_PASS]
    )
    result = await implement_plan(model, tiny_repo, ticket, plan, None, definition_targets=True)
    task, inputs = read_task(model.received[0])
    assert task == "targets" and "Shelf.full" in inputs["names"]
    shown = model.received[1][-1].text
    assert "return len(self.jars) >= LIMIT" in shown and "return len(jars)" not in shown
    assert "`Shelf.full`" in shown and "def heaviest(jars: list[int]) -> int:" in shown
    old = "        return len(self.jars) >= LIMIT\n"
    assert [c.content for c in result.changes] == [
        SHELF.replace(old, "        return len(self.jars) > LIMIT\n")
    ]
    assert "kept as they were: `count`" in result.notes
