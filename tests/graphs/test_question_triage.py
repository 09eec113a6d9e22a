"""A ticket whose title is a question is put to the model as that question first: answered
without a plan's files, or planned as a change."""

import json

from graphs.models import ScriptedChatModel
from graphs.planning import create_plan
from graphs.planning.triage import reads_as_question
from graphs.schemas import Analysis, TicketContext

QUESTION = TicketContext(
    key="WEEK-1",
    summary="Is the planner showing 30 December as week 1 on purpose?",
    description="30 December 2024 is in week 1 in the planner. Is this a bug, or is it meant to "
    "work like that? I don't want anything changed if it is correct.",
)
ANSWER = "It is intended: week_number counts ISO weeks, and that week holds 2 January."
CHANGE_PLAN = {
    "summary": "Count weeks from 1 January.",
    "files": [{"path": "calc/ops.py", "action": "modify", "purpose": "Count from 1 January."}],
    "test_plan": [],
    "risks": [],
    "answer": "",
}


def triage(needs_change: bool, answer: str = "") -> str:
    return json.dumps(
        {
            "asks_for": "Whether the week numbering is intended.",
            "needs_change": needs_change,
            "answer": answer,
        }
    )


def test_a_ticket_whose_title_is_a_question_reads_as_one() -> None:
    assert reads_as_question(QUESTION)
    asking = QUESTION.model_copy(update={"summary": "Does the planner start weeks on Monday? "})
    assert reads_as_question(asking)
    statement = QUESTION.model_copy(
        update={"summary": "Count weeks from 1 January", "description": "Why not? Fix it."}
    )
    assert not reads_as_question(statement)  # a change asked for, a question only in passing


async def test_a_question_the_model_says_needs_no_change_is_answered_without_the_plan_call(
    analysis: Analysis,
) -> None:
    model = ScriptedChatModel([triage(False, ANSWER)])
    plan = await create_plan(model, QUESTION, analysis, None, [], 1)
    assert plan.answer_only and plan.files == [] and plan.answer == ANSWER
    assert model.calls == 1 and plan.tokens > 0
    assert "No code change: this ticket is answered" in plan.markdown


async def test_a_question_that_needs_a_change_after_all_is_planned_with_both_calls_counted(
    analysis: Analysis,
) -> None:
    model = ScriptedChatModel([triage(True), json.dumps(CHANGE_PLAN)])
    plan = await create_plan(model, QUESTION, analysis, None, [], 1)
    assert not plan.answer_only and [f.path for f in plan.files] == ["calc/ops.py"]
    alone = await create_plan(
        ScriptedChatModel([json.dumps(CHANGE_PLAN)]), QUESTION, analysis, None, ["Fix it."], 2
    )
    assert model.calls == 2 and plan.tokens > alone.tokens  # feedback skips the triage


async def test_a_triage_answer_that_does_not_parse_leaves_the_decision_to_the_plan(
    analysis: Analysis,
) -> None:
    model = ScriptedChatModel(["not json"] * 3 + [json.dumps(CHANGE_PLAN)])
    plan = await create_plan(model, QUESTION, analysis, None, [], 1)
    assert model.calls == 4 and [f.path for f in plan.files] == ["calc/ops.py"]


async def test_a_ticket_that_does_not_read_as_a_question_makes_no_triage_call(
    ticket: TicketContext, analysis: Analysis
) -> None:
    model = ScriptedChatModel([json.dumps(CHANGE_PLAN)])
    await create_plan(model, ticket, analysis, None, [], 1)
    assert model.calls == 1
