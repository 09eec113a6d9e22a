"""A short file's first revision from one bare call: the ticket and the file in, the whole
file out; later revisions and long files go on with the worker's full prompt."""

from pathlib import Path

from graphs.implementation import implement_plan
from graphs.implementation.worker.draft import DRAFT_MAX_CHARS, bare_messages, drafted
from graphs.models import ScriptedChatModel
from graphs.schemas import Plan, PlannedFile, Requirements, TicketContext
from llm.prompting import read_task

QA_PASS = '{"passed": true, "summary": "Matches the plan.", "fixes": []}'
KETTLE = '''"""A kettle."""


def boiling(celsius: float) -> bool:
    """Whether water boils at this temperature."""
    return celsius > 100
'''
FIXED = KETTLE.replace("celsius > 100", "celsius >= 100")
TICKET = TicketContext(
    key="TEA-3",
    summary="Water at exactly 100 degrees does not count as boiling",
    description="The kettle says 100 °C is not boiling; it is.",
    acceptance_criteria="- boiling(100) is True",
)
PLAN = Plan(
    version=1,
    summary="Count 100 °C as boiling.",
    files=[PlannedFile(path="tea/kettle.py", action="modify", purpose="Boil at 100.")],
    test_plan=[],
    risks=[],
    markdown="",
)


def test_the_bare_prompt_is_the_ticket_its_answers_and_the_files() -> None:
    system, human = bare_messages(TICKET, "Use >= only.", [("tea/kettle.py", KETTLE)])
    assert "complete new content" in system.text
    text = human.text
    assert text.startswith("Ticket TEA-3: Water at exactly 100 degrees")
    assert "- boiling(100) is True" in text and "Use >= only." in text
    assert "tea/kettle.py\n```python\n" + KETTLE in text
    assert "(none)" in bare_messages(TICKET, "  ", [])[1].text  # no answers said so


def test_only_a_file_short_enough_to_be_written_whole_is_drafted() -> None:
    assert drafted("tea/kettle.py", KETTLE) and drafted("tea/new.py", "")
    assert not drafted("tea/big.py", "x = 1\n" * (DRAFT_MAX_CHARS // 6 + 1))
    assert not drafted("data/cups.json", "{}")


async def test_the_first_revision_is_the_drafts_whole_file(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / "tea").mkdir(parents=True)
    (repo / "tea/kettle.py").write_text(KETTLE)
    model = ScriptedChatModel([f"tea/kettle.py\n```python\n{FIXED}```", QA_PASS])
    requirements = Requirements(requirements=[], acceptance_criteria=[], answers=["Use >= only."])
    result = await implement_plan(model, repo, TICKET, PLAN, requirements, first_draft=True)
    draft_prompt = model.received[0]
    assert "Use >= only." in draft_prompt[-1].text
    assert PLAN.summary not in draft_prompt[-1].text  # bare: no plan
    assert [c.content for c in result.changes] == [FIXED]
    assert "tea/kettle.py: rewritten (a bare draft)" in result.notes


async def test_without_the_setting_the_worker_prompt_is_the_full_one(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / "tea").mkdir(parents=True)
    (repo / "tea/kettle.py").write_text(KETTLE)
    model = ScriptedChatModel([f"tea/kettle.py\n```python\n{FIXED}```", QA_PASS])
    result = await implement_plan(model, repo, TICKET, PLAN, None)
    assert read_task(model.received[0])[0] == "implement_file"
    assert "(a bare draft)" not in result.notes


async def test_bare_revisions_ask_again_barely_with_what_qa_said(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / "tea").mkdir(parents=True)
    (repo / "tea/kettle.py").write_text(KETTLE)
    wrong = KETTLE.replace("celsius > 100", "celsius > 99")
    qa_fail = (
        '{"passed": false, "summary": "99.5 degrees now boils.",'
        ' "fixes": [{"path": "tea/kettle.py", "instruction": "Compare with >= 100."}]}'
    )
    model = ScriptedChatModel(
        [
            f"tea/kettle.py\n```python\n{wrong}```",
            qa_fail,
            f"tea/kettle.py\n```python\n{FIXED}```",
            QA_PASS,
        ]
    )
    result = await implement_plan(
        model, repo, TICKET, PLAN, None, first_draft=True, bare_revisions=True
    )
    first, second = model.received[0][-1].text, model.received[2][-1].text
    assert "was tried" not in first  # the first draft is the floor's prompt
    assert second.startswith("Ticket TEA-3:") and PLAN.summary not in second
    assert "99.5 degrees now boils." in second and "Compare with >= 100." in second
    assert "celsius > 99" in second  # shown the version that was tried
    assert [c.content for c in result.changes] == [FIXED]
    assert "revision 2: tea/kettle.py: rewritten (a bare draft)" in result.notes


def test_the_feedback_a_bare_prompt_shows_is_bounded() -> None:
    long = "The test failed. " * 500
    text = bare_messages(TICKET, "", [("tea/kettle.py", KETTLE)], long)[1].text
    assert "The version below was tried" in text and len(text) < len(long) // 2
    assert text.endswith(KETTLE + "```")
