"""A worker answering a longer Python file with the definitions it changes, spliced in."""

from pathlib import Path

from langchain_core.messages import BaseMessage

from graphs.implementation import implement_plan
from graphs.implementation.worker.answer import ANSWER_SLACK_TOKENS
from graphs.models import ScriptedChatModel
from graphs.schemas import Plan, PlannedFile, TicketContext
from llm.metering import estimate_tokens
from llm.prompting import read_task
from tests.graphs.test_worker_retries import BoundedTeam

QA_PASS = '{"passed": true, "summary": "Matches the plan.", "fixes": []}'
# Twenty-odd lines of colour steps, one of them wrong: long enough to be answered by definitions.
STEPS = (
    "".join(
        f"def {name}(value: float) -> float:\n    return value * {factor}\n\n\n"
        for name, factor in [
            ("lighten", 1.2),
            ("darken", 0.8),
            ("saturate", 1.1),
            ("desaturate", 0.9),
            ("glow", 1.5),
            ("fade", 0.25),
        ]
    ).rstrip("\n")
    + "\n"
)
FIXED = "def fade(value: float) -> float:\n    return value * 0.5\n"


def plan() -> Plan:
    """A plan changing the colour steps."""
    planned = PlannedFile(path="calc/colours.py", action="modify", purpose="Fade to half.")
    return Plan(
        version=1, summary="Half fade.", files=[planned], test_plan=[], risks=[], markdown=""
    )


def answering(text: str) -> object:
    """A scripted worker answer of that code block."""
    return f"calc/colours.py\n```python\n{text}```"


async def test_one_changed_function_changes_that_function_only(
    tiny_repo: Path, ticket: TicketContext
) -> None:
    (tiny_repo / "calc/colours.py").write_text(STEPS)
    model = ScriptedChatModel([answering(FIXED), QA_PASS])
    result = await implement_plan(model, tiny_repo, ticket, plan(), None)
    system = model.received[0][0].text
    assert "Write only what you add or change" in system
    old = "def fade(value: float) -> float:\n    return value * 0.25\n"
    assert [c.content for c in result.changes] == [STEPS.replace(old, FIXED)]


async def test_an_answer_that_does_not_parse_is_asked_again_with_the_reason(
    tiny_repo: Path, ticket: TicketContext
) -> None:
    (tiny_repo / "calc/colours.py").write_text(STEPS)
    broken = "def fade(value: float) -> float\n    return value * 0.5\n"
    model = ScriptedChatModel([answering(broken), answering(FIXED), QA_PASS])
    result = await implement_plan(model, tiny_repo, ticket, plan(), None)
    again = model.received[1][-1].text
    assert "Your answer was not used: the answer does not parse (line 1" in again
    assert FIXED in result.changes[0].content


async def test_whole_files_when_definition_edits_are_off(
    tiny_repo: Path, ticket: TicketContext
) -> None:
    (tiny_repo / "calc/colours.py").write_text(STEPS)
    whole = STEPS.replace("0.25", "0.5")

    def check_prompt(messages: list[BaseMessage]) -> str:
        assert "Write the complete new content of the file" in messages[0].text
        return f"calc/colours.py\n```python\n{whole}```"

    model = ScriptedChatModel([check_prompt, QA_PASS])
    result = await implement_plan(model, tiny_repo, ticket, plan(), None, definition_edits=False)
    assert [c.content for c in result.changes] == [whole]


async def test_an_answer_of_definitions_is_bounded_by_the_statements_shown(
    tiny_repo: Path, ticket: TicketContext
) -> None:
    long_steps = (
        "".join(
            f"def step_{i}(value: float) -> float:\n    return value * {i} + {i} - {i} / 2\n\n\n"
            for i in range(120)
        ).rstrip("\n")
        + "\n"
    )
    (tiny_repo / "calc/colours.py").write_text(long_steps)
    model = BoundedTeam([answering(FIXED), QA_PASS])
    await implement_plan(model, tiny_repo, ticket, plan(), None, max_revisions=1)
    shown = read_task(model.received[0])[1]["window"]
    lines = long_steps.splitlines(keepends=True)[shown["start_line"] - 1 : shown["end_line"]]
    assert model.bounds[0] == estimate_tokens("".join(lines)) + ANSWER_SLACK_TOKENS
