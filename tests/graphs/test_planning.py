"""The planning graph: the model's plan, checked and rendered as markdown."""

import json

from graphs.models import ScriptedChatModel
from graphs.planning import create_plan
from graphs.prompting import read_task
from graphs.schemas import Analysis, Requirements, TicketContext

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
