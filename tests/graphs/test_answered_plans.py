"""A plan that answers a question: an answer and no planned file, and nothing less."""

import json

from graphs.models import ScriptedChatModel
from graphs.planning import create_plan
from graphs.schemas import Analysis, Plan, PlannedFile, TicketContext

ANSWER = "It is intended: week_number counts ISO weeks, as the printed calendars do."
QUESTION = {"summary": "Explain the week numbers.", "files": [], "test_plan": [], "risks": []}
CHANGE = PlannedFile(path="calc/ops.py", action="modify", purpose="Count from 1 January.")


def plan(answer: str = "", files: list[PlannedFile] | None = None) -> Plan:
    return Plan(
        version=1, summary="s", files=files or [], test_plan=[], risks=[], markdown="",
        answer=answer,
    )  # fmt: skip


def test_a_plan_is_answer_only_with_an_answer_and_no_file() -> None:
    assert plan(ANSWER).answer_only
    assert Plan.model_validate(plan(ANSWER).model_dump()).answer_only  # as a workflow reads it
    assert not plan(ANSWER, [CHANGE]).answer_only
    assert not plan("  \n").answer_only
    assert not plan().answer_only


async def test_the_model_answering_plans_no_change(
    ticket: TicketContext, analysis: Analysis
) -> None:
    model = ScriptedChatModel([json.dumps({**QUESTION, "answer": f"{ANSWER}\nSecond line."})])
    asked = ticket.model_copy(update={"description": "Is the numbering of week_number intended?"})
    answered = await create_plan(model, asked, analysis, None, [], 1)
    assert answered.answer_only and answered.files == []
    assert answered.answer == f"{ANSWER}\nSecond line."
    section = answered.markdown.split("## No code change: this ticket is answered\n", 1)[1]
    assert section.startswith(f"\n> {ANSWER}\n> Second line.\n")


async def test_an_answer_beside_planned_files_is_not_kept(
    ticket: TicketContext, analysis: Analysis
) -> None:
    files = [{"path": "calc/ops.py", "action": "modify", "purpose": "Count from 1 January."}]
    model = ScriptedChatModel([json.dumps({**QUESTION, "files": files, "answer": ANSWER})])
    asked = ticket.model_copy(update={"description": "Should week_number count from 1 January?"})
    changed = await create_plan(model, asked, analysis, None, [], 1)
    assert not changed.answer_only and changed.answer == ""
    assert [f.path for f in changed.files] == ["calc/ops.py"]
    assert "No code change" not in changed.markdown


async def test_a_plan_without_an_answer_or_from_the_requirements_is_not_answer_only(
    ticket: TicketContext, analysis: Analysis
) -> None:
    unanswered = await create_plan(
        ScriptedChatModel([json.dumps(QUESTION)]), ticket, analysis, None, [], 1
    )
    assert not unanswered.answer_only and "No code change" not in unanswered.markdown
    fallback = await create_plan(ScriptedChatModel(["no plan"] * 3), ticket, analysis, None, [], 1)
    assert fallback.fallback and not fallback.answer_only and fallback.answer == ""
