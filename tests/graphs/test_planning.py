"""The planning graph: the model's plan, checked and rendered as markdown."""

import json
from pathlib import Path

from graphs.analysis import index_repository, make_context_query_tool
from graphs.models import ScriptedChatModel
from graphs.planning import create_plan
from graphs.planning.state import PlanAnswer, plan_answer_schema
from graphs.schemas import Analysis, Requirements, TicketContext
from llm.prompting import read_task

PLAN_ANSWER = {
    "summary": "Add subtract next to add and test it.",
    "files": [
        {"path": "./calc/ops.py", "action": "modify", "purpose": "Add subtract(a, b)."},
        {"path": "tests/test_ops.py", "action": "modify", "purpose": "Test subtract."},
        {"path": "../outside.py", "action": "create", "purpose": "Escapes the repository."},
        {"path": "calc/ops.py", "action": "modify", "purpose": "Duplicate."},
    ],
    "test_plan": ["Run python -m pytest -q"],
    "risks": ["None significant"],
}


async def test_plan_markdown_without_feedback(ticket: TicketContext, analysis: Analysis) -> None:
    model = ScriptedChatModel([json.dumps(PLAN_ANSWER)])
    plan = await create_plan(model, ticket, analysis, None, [], 1)
    assert plan.version == 1 and plan.tokens > 0 and not plan.produced_offline
    assert [f.path for f in plan.files] == ["calc/ops.py", "tests/test_ops.py"]
    assert any("../outside.py" in r for r in plan.risks)
    markdown = plan.markdown
    assert markdown.startswith("# Plan v1 for CALC-7: Add a subtract function\n")
    assert "- `calc/ops.py` (modify): Add subtract(a, b)." in markdown
    for section in ("## Files", "## Test plan", "## Risks"):
        assert section in markdown
    assert markdown.index("## Files") < markdown.index("## Test plan") < markdown.index("## Risks")
    assert "## Feedback addressed" not in markdown
    assert "offline" not in markdown.lower()
    task, inputs = read_task(model.received[0])
    assert task == "plan"
    assert inputs["mentioned_files"] == ["calc/ops.py"]
    assert inputs["candidate_files"][0] == "calc/ops.py"
    assert inputs["requirements"] is None


async def test_plan_with_feedback_has_a_feedback_section(
    ticket: TicketContext, analysis: Analysis
) -> None:
    answer = {**PLAN_ANSWER, "addresses_feedback": ["Tests now cover negative numbers."]}
    model = ScriptedChatModel([json.dumps(answer)])
    requirements = Requirements(requirements=["subtract"], acceptance_criteria=["5-3 == 2"])
    feedback = ["Test negative numbers too."]
    plan = await create_plan(model, ticket, analysis, requirements, feedback, 3)
    assert plan.markdown.startswith("# Plan v3 for CALC-7:")
    section = plan.markdown.split("## Feedback addressed\n", 1)[1]
    assert "- Tests now cover negative numbers." in section
    assert plan.addresses_feedback == ["Tests now cover negative numbers."]
    _, inputs = read_task(model.received[0])
    assert inputs["feedback"] == feedback and inputs["version"] == 3
    assert inputs["requirements"]["acceptance_criteria"] == ["5-3 == 2"]


async def test_feedback_the_model_ignored_is_still_listed(
    ticket: TicketContext, analysis: Analysis
) -> None:
    model = ScriptedChatModel([json.dumps(PLAN_ANSWER)])
    plan = await create_plan(model, ticket, analysis, None, ["Use decimals."], 2)
    section = plan.markdown.split("## Feedback addressed\n", 1)[1]
    assert "Use decimals." in section


async def test_a_first_plan_is_offered_only_the_fields_that_can_apply(
    ticket: TicketContext, analysis: Analysis
) -> None:
    """No reviewer feedback, no previous version, no question in the ticket: the schema the
    model is held to has nothing to write about them."""
    answer = {**PLAN_ANSWER, "changes_since_previous": ["Everything."], "answer": "Rambling."}
    model = ScriptedChatModel([json.dumps(answer)])
    plan = await create_plan(model, ticket, analysis, None, [], 1)
    system = model.received[0][0].text
    for field in ("changes_since_previous", "addresses_feedback", "answer"):
        assert f'"{field}"' not in system, field
    assert '"summary"' in system and '"files"' in system
    assert plan.changes_since_previous == [] and plan.answer == ""


def test_a_question_or_a_revision_keeps_its_fields():
    first = plan_answer_schema(question=False, revised=False)
    assert set(first.model_fields) == {"summary", "files", "test_plan", "risks", "contracts"}
    assert "answer" in plan_answer_schema(question=True, revised=False).model_fields
    revised = plan_answer_schema(question=False, revised=True).model_fields
    assert {"addresses_feedback", "changes_since_previous"} <= set(revised)
    assert plan_answer_schema(question=True, revised=True) is PlanAnswer
    summary = first.model_json_schema()["properties"]["summary"]
    assert summary == PlanAnswer.model_json_schema()["properties"]["summary"]


CONTRACT = {
    "path": "calc/ops.py",
    "signature": "subtract(a: int, b: int) -> int",
    "behaviour": "Returns a - b.",
}


async def test_contracts_are_kept_and_rendered(ticket: TicketContext, analysis: Analysis) -> None:
    answer = {**PLAN_ANSWER, "contracts": [CONTRACT, CONTRACT, {**CONTRACT, "signature": " "}]}
    model = ScriptedChatModel([json.dumps(answer)])
    plan = await create_plan(model, ticket, analysis, None, [], 1)
    assert [c.signature for c in plan.contracts] == ["subtract(a: int, b: int) -> int"]
    section = plan.markdown.split("## Interface contracts\n", 1)[1].split("##", 1)[0]
    assert "- `subtract(a: int, b: int) -> int` in `calc/ops.py`: Returns a - b." in section
    assert "What changed" not in plan.markdown and plan.changes_since_previous == []


async def test_a_revised_plan_says_what_changed(ticket: TicketContext, analysis: Analysis) -> None:
    first = await create_plan(ScriptedChatModel([json.dumps(PLAN_ANSWER)]), ticket, analysis,
                              None, [], 1)  # fmt: skip
    revised = {
        **PLAN_ANSWER,
        "files": [*PLAN_ANSWER["files"][:1], {"path": "README.md", "action": "modify",
                                              "purpose": "Document subtract."}],
        "contracts": [CONTRACT],
        "changes_since_previous": ["Document subtract in the README instead of more tests."],
    }  # fmt: skip
    model = ScriptedChatModel([json.dumps(revised)])
    plan = await create_plan(model, ticket, analysis, None, ["Document it."], 2, first)
    assert plan.changes_since_previous == ["Document subtract in the README instead of more tests."]
    assert plan.markdown.index("## What changed since v1") < plan.markdown.index("## Files")
    previous = read_task(model.received[0])[1]["previous_version"]
    assert previous["version"] == 1 and previous["files"][1]["path"] == "tests/test_ops.py"

    silent = {**revised, "changes_since_previous": []}
    plan = await create_plan(ScriptedChatModel([json.dumps(silent)]), ticket, analysis, None,
                             ["Document it."], 2, first)  # fmt: skip
    assert plan.changes_since_previous == [
        "Added `README.md` (modify).",
        "Dropped `tests/test_ops.py`.",
        "New contract: `subtract(a: int, b: int) -> int`.",
    ]


async def test_the_planner_reads_related_code_through_context_query(
    tiny_repo: Path, ticket: TicketContext, analysis: Analysis
) -> None:
    tool = make_context_query_tool(index_repository(tiny_repo))
    model = ScriptedChatModel([json.dumps(PLAN_ANSWER)])
    await create_plan(model, ticket, analysis, None, [], 1, tools=[tool])
    related = read_task(model.received[0])[1]["related_code"]
    assert related.startswith("calc/ops.py (lines 1-2)") and "def add" in related


async def test_a_planned_change_to_a_missing_file_lands_in_the_related_code(
    tiny_repo: Path, analysis: Analysis
) -> None:
    tool = make_context_query_tool(index_repository(tiny_repo))
    invented = {
        **PLAN_ANSWER,
        "files": [{"path": "calc/minus.py", "action": "modify", "purpose": "Subtract."}],
        "contracts": [
            {"path": "calc/minus.py", "signature": "def subtract(a, b)", "behaviour": "a - b"}
        ],
    }
    ticket = TicketContext(key="CALC-8", summary="Subtract next to add", description="As add.")
    plan = await create_plan(
        ScriptedChatModel([json.dumps(invented)]), ticket, analysis, None, [], 1, tools=[tool]
    )
    assert [(f.path, f.action) for f in plan.files] == [("calc/ops.py", "modify")]
    assert [c.path for c in plan.contracts] == ["calc/ops.py"]
    assert any("`calc/minus.py` to change is not in the repository" in r for r in plan.risks)


async def test_a_plan_keeps_existing_code_and_the_packaging_the_ticket_does_not_ask_about(
    ticket: TicketContext, analysis: Analysis
) -> None:
    answer = {
        **PLAN_ANSWER,
        "files": [
            {"path": "calc/ops.py", "action": "create", "purpose": "Implement subtract."},
            {"path": "pyproject.toml", "action": "modify", "purpose": "Include the package."},
        ],
    }
    analysis = analysis.model_copy(update={"files": [*analysis.files, "pyproject.toml"]})
    plan = await create_plan(ScriptedChatModel([json.dumps(answer)]), ticket, analysis, None, [], 1)
    assert [(f.path, f.action) for f in plan.files] == [("calc/ops.py", "modify")]
    assert any("Planned to create `calc/ops.py`, which the repository has" in r for r in plan.risks)
    assert any("Dropped changing `pyproject.toml`" in r for r in plan.risks)
    assert "`calc/ops.py` (modify)" in plan.markdown


async def test_answers_that_never_parse_give_a_plan_built_from_the_requirements(
    ticket: TicketContext, analysis: Analysis
) -> None:
    looping = "Plan:\n" + "".join(
        f"- `resample(track, max_rate={n})`\n" for n in range(175, 60, -5)
    )
    model = ScriptedChatModel([looping] * 3)
    requirements = Requirements(
        requirements=["subtract(a, b) returns a - b"],
        acceptance_criteria=["subtract(5, 3) == 2"],
    )
    plan = await create_plan(model, ticket, analysis, requirements, [], 1)
    assert model.calls == 3
    # The ticket goes on: the files it names, its criteria as the test plan, marked as such.
    assert [f.path for f in plan.files] == ["calc/ops.py"]
    assert plan.test_plan == ["subtract(5, 3) == 2"]
    assert "PlanAnswer: no usable answer after 3 attempts" in plan.fallback
    assert "Built without the model's plan" in plan.markdown
    assert plan.risks[0].startswith("This plan was built from the requirements")
    # The failed attempts are counted: three prompts and three answers, not zero.
    assert plan.tokens >= 3 * len(looping) // 4
