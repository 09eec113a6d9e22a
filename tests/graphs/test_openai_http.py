"""The `openai` provider over real HTTP, against a local OpenAI-compatible server (no key).

Every graph runs: structured answers through `response_format` json_schema, and a worker
calling the `context_query` tool before it writes its file.
"""

from collections.abc import Iterator
from pathlib import Path

import pytest

from graphs.analysis import analyse_repository
from graphs.implementation import implement_plan
from graphs.models import make_chat_model
from graphs.planning import create_plan
from graphs.refinement import generate_questions, refine_requirements
from graphs.schemas import TicketContext
from harness.local_tester import LocalTester
from harness.model_server import FakeModelServer
from harness.team import TeamBrain

SUBTRACT = "\n\ndef subtract(a: int, b: int) -> int:\n    return a - b\n"
TEST_SUBTRACT = "from calc.ops import subtract\n\n\ndef test_subtract() -> None:\n" + (
    "    assert subtract(5, 3) == 2\n"
)


@pytest.fixture
def server() -> Iterator[FakeModelServer]:
    """The fake model server, playing the team for a subtract function."""
    brain = TeamBrain(
        additions={"calc/ops.py": SUBTRACT, "tests/test_ops.py": TEST_SUBTRACT},
        contracts=[{"path": "calc/ops.py", "signature": "subtract(a, b)", "behaviour": "a - b"}],
        query_first=True,
    )
    running = FakeModelServer(brain)
    running.start()
    yield running
    running.stop()


async def test_every_graph_over_http(
    server: FakeModelServer, tiny_repo: Path, ticket: TicketContext, tmp_path: Path
) -> None:
    model = make_chat_model("openai", base_url=server.base_url, model="fake")
    analysis = await analyse_repository(model, tiny_repo, ticket)
    questions = await generate_questions(model, ticket, analysis)
    requirements = await refine_requirements(model, ticket, analysis, [], [])
    plan = await create_plan(model, ticket, analysis, requirements, [], 1)
    tester = LocalTester(tiny_repo, tmp_path / "runs", "python -m pytest -q")
    result = await implement_plan(
        model, tiny_repo, ticket, plan, requirements, analysis=analysis, tester=tester
    )

    assert analysis.summary == "A small Python package with pytest tests."
    assert questions.clear and requirements.clear and not requirements.followup_questions
    assert [f.path for f in plan.files] == ["calc/ops.py", "tests/test_ops.py"]
    assert plan.contracts[0].signature == "subtract(a, b)"
    assert result.tests_passed and result.qa_passed and result.revisions == 1
    assert {c.path for c in result.changes} == {"calc/ops.py", "tests/test_ops.py"}
    assert "def subtract" in result.changes[0].content

    structured = [c for c in server.calls if c.task != "implement_file"]
    assert [c.task for c in structured] == [
        "analysis", "questions", "requirements", "plan", "review"
    ]  # fmt: skip
    for call in structured:
        assert call.body["response_format"]["type"] == "json_schema"
        assert "tools" not in call.body
    plan_schema = structured[3].body["response_format"]["json_schema"]
    assert plan_schema["name"] == "PlanAnswer"
    assert "contracts" in plan_schema["schema"]["properties"]

    workers = [c for c in server.calls if c.task == "implement_file"]
    assert len(workers) == 4  # per file: a context_query call, then the file
    assert all(w.body["tools"][0]["function"]["name"] == "context_query" for w in workers)
    answered = [w for w in workers if w.body["messages"][-1]["role"] == "tool"]
    assert len(answered) == 2
    assert all(w.body["messages"][-1]["content"].startswith(("calc/", "tests/")) for w in answered)
    assert "```" in answered[0].body["messages"][-1]["content"]

    # every step counts the tokens the server reported for its calls, and only those
    counted = [analysis.tokens, questions.tokens, requirements.tokens, plan.tokens]
    assert counted == [c.tokens for c in structured[:4]]
    assert result.tokens == structured[4].tokens + sum(w.tokens for w in workers)
