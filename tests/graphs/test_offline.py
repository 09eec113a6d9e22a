"""The offline model end to end: honest, deterministic answers for every graph."""

from pathlib import Path

from graphs.analysis import analyse_repository
from graphs.implementation import implement_plan
from graphs.models import make_chat_model
from graphs.planning import create_plan
from graphs.refinement import generate_questions, refine_requirements
from graphs.schemas import TicketContext

NOTICE = "Produced offline without a language model"


async def test_offline_run_on_a_tiny_repository(tiny_repo: Path) -> None:
    model = make_chat_model("offline")
    ticket = TicketContext(
        key="CALC-9",
        summary="Add subtract to calc/ops.py",
        description="Add a subtract function to calc/ops.py. Negative results: still open?",
    )
    analysis = await analyse_repository(model, tiny_repo, ticket)
    assert analysis.produced_offline and analysis.summary.startswith(NOTICE)
    assert analysis.test_command == "python -m pytest -q" and analysis.tokens > 0

    questions = await generate_questions(model, ticket, analysis)
    assert questions.produced_offline and not questions.clear
    assert 1 <= len(questions.questions) <= 3
    assert any("acceptance criteria" in q.text for q in questions.questions)
    assert any("Negative results: still open?" in q.text for q in questions.questions)
    assert all(q.why.startswith(NOTICE) and "offline" in q.text for q in questions.questions)

    answers = ["subtract(5, 3) == 2", "Negative results are fine."]
    requirements = await refine_requirements(model, ticket, analysis, questions.questions, answers)
    assert requirements.produced_offline
    assert requirements.requirements[0] == ticket.summary
    assert "Negative results are fine." in requirements.requirements
    assert requirements.acceptance_criteria == ["subtract(5, 3) == 2"]

    plan = await create_plan(model, ticket, analysis, requirements, ["Name the tests."], 2)
    assert plan.produced_offline
    assert [(f.path, f.action) for f in plan.files] == [("calc/ops.py", "modify")]
    lines = plan.markdown.splitlines()
    assert lines[0] == "# Plan v2 for CALC-9: Add subtract to calc/ops.py"
    assert NOTICE in lines[2] and "language model is needed" in lines[2]
    assert "## Feedback addressed" in plan.markdown and "Name the tests." in plan.markdown
    assert "Run `python -m pytest -q`" in plan.markdown

    implementation = await implement_plan(model, tiny_repo, ticket, plan, requirements)
    assert implementation.produced_offline
    assert implementation.changes == []
    assert implementation.revisions == 1  # no warmer retry: offline answers are always the same
    assert NOTICE in implementation.notes
    assert "language model is needed to write the code" in implementation.notes


async def test_offline_questions_for_a_clear_ticket(tiny_repo: Path) -> None:
    model = make_chat_model("offline")
    ticket = TicketContext(
        key="CALC-10",
        summary="Add subtract",
        description="Add subtract(a, b) returning a minus b to calc/ops.py, with a unit test.",
        acceptance_criteria="subtract(5, 3) == 2",
    )
    analysis = await analyse_repository(model, tiny_repo, ticket)
    questions = await generate_questions(model, ticket, analysis)
    assert questions.clear and questions.questions == []


async def test_offline_plan_without_named_files_says_so(tiny_repo: Path) -> None:
    model = make_chat_model("offline")
    ticket = TicketContext(key="C-1", summary="Speed things up", description="It is slow.")
    analysis = await analyse_repository(model, tiny_repo, ticket)
    plan = await create_plan(model, ticket, analysis, None, [], 1)
    assert plan.files == []
    assert any("No file named in the ticket" in r for r in plan.risks)


async def test_offline_model_is_deterministic(tiny_repo: Path) -> None:
    ticket = TicketContext(key="C-2", summary="Fix add", description="add is wrong?")
    first = await analyse_repository(make_chat_model("offline"), tiny_repo, ticket)
    second = await analyse_repository(make_chat_model("offline"), tiny_repo, ticket)
    assert first == second
