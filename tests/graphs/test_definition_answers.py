"""A worker answering a longer Python file with the definitions it changes, spliced in."""

from pathlib import Path

from langchain_core.messages import BaseMessage

from graphs.implementation import implement_plan
from graphs.models import ScriptedChatModel
from graphs.schemas import Plan, PlannedFile, TicketContext

QA_PASS = '{"passed": true, "summary": "Matches the plan.", "fixes": []}'
# Twenty-odd lines of conversions, one of them wrong: long enough to be answered by definitions.
UNITS = (
    "".join(
        f"def {name}(value: float) -> float:\n    return value * {factor}\n\n\n"
        for name, factor in [
            ("km_to_miles", 0.621371),
            ("miles_to_km", 1.609344),
            ("kg_to_pounds", 2.204623),
            ("pounds_to_kg", 0.453592),
            ("litres_to_gallons", 0.264172),
            ("gallons_to_litres", 4.54609),
        ]
    ).rstrip("\n")
    + "\n"
)
FIXED = "def gallons_to_litres(value: float) -> float:\n    return value * 3.785412\n"


def plan() -> Plan:
    """A plan changing the conversions module."""
    planned = PlannedFile(
        path="calc/units.py", action="modify", purpose="Use US gallons in gallons_to_litres."
    )
    return Plan(
        version=1, summary="US gallons.", files=[planned], test_plan=[], risks=[], markdown=""
    )


def answering(text: str) -> object:
    """A scripted worker answer of that code block."""
    return f"calc/units.py\n```python\n{text}```"


async def test_one_changed_function_changes_that_function_only(
    tiny_repo: Path, ticket: TicketContext
) -> None:
    (tiny_repo / "calc/units.py").write_text(UNITS)
    model = ScriptedChatModel([answering(FIXED), QA_PASS])
    result = await implement_plan(model, tiny_repo, ticket, plan(), None)
    system = model.received[0][0].text
    assert "Write only what you add or change" in system
    old = "def gallons_to_litres(value: float) -> float:\n    return value * 4.54609\n"
    assert [c.content for c in result.changes] == [UNITS.replace(old, FIXED)]


async def test_an_answer_that_does_not_parse_is_asked_again_with_the_reason(
    tiny_repo: Path, ticket: TicketContext
) -> None:
    (tiny_repo / "calc/units.py").write_text(UNITS)
    broken = "def gallons_to_litres(value: float) -> float\n    return value * 3.785412\n"
    model = ScriptedChatModel([answering(broken), answering(FIXED), QA_PASS])
    result = await implement_plan(model, tiny_repo, ticket, plan(), None)
    again = model.received[1][-1].text
    assert "Your answer was not used: the answer does not parse (line 1" in again
    assert FIXED in result.changes[0].content


async def test_whole_files_when_definition_edits_are_off(
    tiny_repo: Path, ticket: TicketContext
) -> None:
    (tiny_repo / "calc/units.py").write_text(UNITS)
    whole = UNITS.replace("4.54609", "3.785412")

    def check_prompt(messages: list[BaseMessage]) -> str:
        assert "Write the complete new content of the file" in messages[0].text
        return f"calc/units.py\n```python\n{whole}```"

    model = ScriptedChatModel([check_prompt, QA_PASS])
    result = await implement_plan(model, tiny_repo, ticket, plan(), None, definition_edits=False)
    assert [c.content for c in result.changes] == [whole]
