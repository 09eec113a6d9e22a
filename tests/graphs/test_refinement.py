"""The refinement graph: clarifying questions and refined requirements."""

import json

import pytest

from graphs.models import ScriptedChatModel
from graphs.prompting import read_task
from graphs.refinement import build_refinement_graph, generate_questions, refine_requirements
from graphs.schemas import Analysis, Question, TicketContext


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
