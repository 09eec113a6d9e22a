"""The refinement graph: clarifying questions and refined requirements."""

import json

import pytest

from graphs.models import ScriptedChatModel
from graphs.refinement import build_refinement_graph, generate_questions, refine_requirements
from graphs.refinement.state import MAX_QUESTIONS, WHY_CHARS, QuestionsAnswer
from graphs.schemas import Analysis, Question, TicketContext
from llm.prompting import read_task


async def test_a_clear_ticket_needs_no_questions(ticket: TicketContext, analysis: Analysis) -> None:
    model = ScriptedChatModel(['{"questions": [], "clear": true}'])
    result = await generate_questions(model, ticket, analysis)
    assert result.clear and result.questions == []
    assert result.tokens > 0 and not result.produced_offline
    task, inputs = read_task(model.received[0])
    assert task == "questions"
    assert inputs["ticket"]["key"] == "CALC-7"
    assert inputs["analysis"]["test_command"] == "python -m pytest -q"
    assert "files" not in inputs["analysis"]


async def test_questions_are_returned(ticket: TicketContext, analysis: Analysis) -> None:
    answer = {
        "questions": [
            {"text": "Should subtract accept floats?", "why": "Changes the signature."},
            {"text": "   ", "why": "blank questions are dropped"},
            {"text": "Must it raise on overflow?", "why": "Changes error handling."},
        ],
        "clear": True,  # contradicted by the questions: they win
    }
    model = ScriptedChatModel([json.dumps(answer)])
    result = await generate_questions(model, ticket, analysis)
    assert not result.clear
    assert [q.text for q in result.questions] == [
        "Should subtract accept floats?",
        "Must it raise on overflow?",
    ]


async def test_questions_are_few_and_their_reasons_short(
    ticket: TicketContext, analysis: Analysis
) -> None:
    rambling = "It is the base case and essential to the functionality of the application. " * 6
    answer = {"questions": [{"text": f"Q{i}?", "why": rambling} for i in range(5)], "clear": False}
    model = ScriptedChatModel([json.dumps(answer)])
    result = await generate_questions(model, ticket, analysis)
    assert [q.text for q in result.questions] == ["Q0?", "Q1?", "Q2?"]
    assert all(len(q.why) <= WHY_CHARS for q in result.questions)
    schema = QuestionsAnswer.model_json_schema()  # the bounds a local server's grammar enforces
    assert schema["properties"]["questions"]["maxItems"] == MAX_QUESTIONS == 3
    assert schema["$defs"]["QuestionAnswer"]["properties"]["why"]["maxLength"] == WHY_CHARS


async def test_requirements_from_answers(ticket: TicketContext, analysis: Analysis) -> None:
    questions = [Question(text="Floats too?", why="signature")]
    answer = {
        "requirements": ["subtract(a, b) returns a - b", "Accept floats"],
        "acceptance_criteria": ["subtract(5, 3) == 2", "subtract(0.5, 0.25) == 0.25"],
    }
    model = ScriptedChatModel([json.dumps(answer)])
    result = await refine_requirements(
        model, ticket, analysis, questions, ["Yes, floats too.", "Also document it."]
    )
    assert result.requirements == answer["requirements"]
    assert result.acceptance_criteria == answer["acceptance_criteria"]
    assert result.answers == ["Yes, floats too.", "Also document it."]  # kept as written
    task, inputs = read_task(model.received[0])
    assert task == "requirements"
    assert inputs["answered_questions"] == [
        {"question": "Floats too?", "answer": "Yes, floats too."},
        {"question": None, "answer": "Also document it."},
    ]


async def test_unknown_step_is_refused(ticket: TicketContext, analysis: Analysis) -> None:
    graph = build_refinement_graph(ScriptedChatModel([]))
    with pytest.raises(ValueError, match="unknown refinement step"):
        await graph.ainvoke(
            {"step": "plan", "ticket": ticket, "analysis": analysis, "questions": [], "answers": []}
        )


async def test_answers_that_settle_everything_are_clear(
    ticket: TicketContext, analysis: Analysis
) -> None:
    answer = {"requirements": ["subtract(a, b) returns a - b"], "acceptance_criteria": ["5-3=2"]}
    model = ScriptedChatModel([json.dumps(answer)])
    result = await refine_requirements(model, ticket, analysis, [], ["Integers only."])
    assert result.clear and result.followup_questions == []
    assert read_task(model.received[0])[1]["followup_allowed"] is True


async def test_a_follow_up_round(ticket: TicketContext, analysis: Analysis) -> None:
    questions = [Question(text="Floats too?", why="signature")]
    followups = [
        {"text": f"Follow-up {i}?", "why": "The answer left it open."} for i in range(1, 6)
    ]
    first = {
        "requirements": ["subtract(a, b) returns a - b"],
        "acceptance_criteria": ["subtract(5, 3) == 2"],
        "followup_questions": followups,
        "clear": True,  # contradicted by the questions: they win
    }
    model = ScriptedChatModel([json.dumps(first)])
    result = await refine_requirements(model, ticket, analysis, questions, ["Maybe."])
    assert not result.clear
    assert [q.text for q in result.followup_questions] == [f"Follow-up {i}?" for i in (1, 2, 3)]
    assert all(q.why for q in result.followup_questions)
    assert result.requirements == ["subtract(a, b) returns a - b"]

    asked = questions + result.followup_questions
    second = {
        "requirements": ["subtract(a, b) returns a - b", "Floats are accepted"],
        "acceptance_criteria": ["subtract(0.5, 0.25) == 0.25"],
    }
    model = ScriptedChatModel([json.dumps(second)])
    final = await refine_requirements(
        model, ticket, analysis, asked, ["Maybe.", "Yes.", "No.", "Later."]
    )
    assert final.clear and final.requirements[-1] == "Floats are accepted"
    pairs = read_task(model.received[0])[1]["answered_questions"]
    assert pairs[1] == {"question": "Follow-up 1?", "answer": "Yes."}


async def test_no_follow_up_when_the_rounds_are_used_up(
    ticket: TicketContext, analysis: Analysis
) -> None:
    answer = {
        "requirements": ["Assumption: integers only"],
        "acceptance_criteria": [],
        "followup_questions": [{"text": "Floats?", "why": "signature"}],
        "clear": False,
    }
    model = ScriptedChatModel([json.dumps(answer)])
    result = await refine_requirements(
        model, ticket, analysis, [], ["No idea."], allow_followup=False
    )
    assert result.clear and result.followup_questions == []
    assert read_task(model.received[0])[1]["followup_allowed"] is False


async def test_no_follow_ups_when_the_answers_settle_every_question(
    ticket: TicketContext, analysis: Analysis
) -> None:
    questions = [Question(text="Floats too?", why="type"), Question(text="Name?", why="API")]
    answer = {
        "requirements": ["subtract(a, b) returns a - b"],
        "acceptance_criteria": ["subtract(5, 3) == 2"],
        "followup_questions": [{"text": "Should floats be rounded?", "why": "precision"}],
        "clear": False,
    }
    settled = ["Yes, floats too.", "Call it subtract."]
    model = ScriptedChatModel([json.dumps(answer)])
    result = await refine_requirements(model, ticket, analysis, questions, settled)
    assert result.clear and result.followup_questions == []
    model = ScriptedChatModel([json.dumps(answer)])
    result = await refine_requirements(model, ticket, analysis, questions, ["Not sure yet."])
    assert [q.text for q in result.followup_questions] == ["Should floats be rounded?"]


async def test_the_same_answers_given_again_end_the_follow_ups(
    ticket: TicketContext, analysis: Analysis
) -> None:
    asked = [Question(text="Floats too?", why="type"), Question(text="Rounding?", why="precision")]
    answer = {
        "requirements": ["subtract(a, b) returns a - b"],
        "acceptance_criteria": ["subtract(5, 3) == 2"],
        "followup_questions": [{"text": "Which rounding mode?", "why": "precision"}],
        "clear": False,
    }
    again = ["Floats too; rounding is unclear to me.", "Floats too; rounding is unclear to me."]
    model = ScriptedChatModel([json.dumps(answer)])
    result = await refine_requirements(model, ticket, analysis, asked, again)
    assert result.clear and result.followup_questions == []
