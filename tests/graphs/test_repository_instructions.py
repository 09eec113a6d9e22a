"""The repository's own instructions (AGENTS.md and the like): read and condensed, their check
commands found, and carried to the plan, the workers and QA."""

import json
from pathlib import Path

from graphs.analysis.instructions import check_commands, read_instructions
from graphs.implementation import implement_plan
from graphs.models import ScriptedChatModel
from graphs.planning import create_plan
from graphs.schemas import Analysis, PlannedFile, TicketContext
from llm.prompting import read_task
from tests.graphs.test_implementation import NEW_OPS, QA_PASS, answer_for, make_plan

AGENTS = """# Working on calc

- Name tests `test_<behaviour>`; never touch `calc/legacy.py`.
- Before committing, run `ruff check .` and then:

```console
$ mypy calc
$ ruff format .
```
"""


def test_short_instructions_are_kept_whole_with_where_they_come_from(tmp_path: Path) -> None:
    (tmp_path / "AGENTS.md").write_text(AGENTS)
    (tmp_path / ".github").mkdir()
    (tmp_path / ".github" / "copilot-instructions.md").write_text("Prefer pure functions.\n")
    found = read_instructions(tmp_path)
    assert found.sources == ["AGENTS.md", ".github/copilot-instructions.md"]
    assert found.text == AGENTS.strip() + "\n\nPrefer pure functions."
    assert found.check_commands == ["ruff check .", "mypy calc"]
    assert found.prompt_text().startswith(
        "The repository's own instructions (AGENTS.md, .github/copilot-instructions.md):\n# Work"
    )


def test_long_instructions_keep_headings_lists_and_directives_within_the_budget(
    tmp_path: Path,
) -> None:
    story = "This project started in 2019 as a weekend hack among friends. " * 40
    guide = f"# Contributing\n\n{story}\n\n## Tests\n\n- Every fix must come with a test.\n"
    (tmp_path / "CONTRIBUTING.md").write_text(guide + "\nYou should never commit secrets.\n")
    found = read_instructions(tmp_path, budget=200)
    assert found.text == (
        "# Contributing\n## Tests\n- Every fix must come with a test.\n"
        "You should never commit secrets."
    )
    assert len(found.text) <= 200


def test_only_commands_that_check_without_changing_are_taken() -> None:
    text = (
        "Run `ruff check --fix .`, `black .`, `ruff format --check`, `pytest -q`, "
        "`make lint`, `uv run mypy src && rm -rf /` and `python -m flake8 src`."
    )
    assert check_commands(text) == ["ruff format --check", "make lint", "python -m flake8 src"]


def test_a_repository_without_instructions_gives_nothing(tmp_path: Path) -> None:
    (tmp_path / "AGENTS.md").symlink_to("/etc/hostname")  # a link out of the checkout
    found = read_instructions(tmp_path)
    assert found.sources == [] and found.text == "" and found.prompt_text() == ""


async def test_the_plan_is_given_the_instructions_and_says_it_follows_them(
    ticket: TicketContext, analysis: Analysis
) -> None:
    answer = {
        "summary": "Add subtract.",
        "files": [{"path": "calc/ops.py", "action": "modify", "purpose": "Add subtract."}],
        "test_plan": ["Run the tests"],
        "risks": [],
    }
    model = ScriptedChatModel([json.dumps(answer)])
    told = analysis.model_copy(update={"instructions": AGENTS, "instruction_files": ["AGENTS.md"]})
    plan = await create_plan(model, ticket, told, None, [], 1)
    _, inputs = read_task(model.received[0])
    assert inputs["repository_instructions"] == AGENTS
    assert plan.instructions_followed == ["AGENTS.md"]
    assert plan.markdown.rstrip().endswith(
        "## Repository instructions\n\nFollows the repository's `AGENTS.md`."
    )
    bare = ScriptedChatModel([json.dumps(answer)])
    await create_plan(bare, ticket, analysis, None, [], 1)
    assert "repository_instructions" not in read_task(bare.received[0])[1]


async def test_workers_and_qa_are_shown_the_instructions_of_the_checkout(
    tiny_repo: Path, ticket: TicketContext
) -> None:
    (tiny_repo / "AGENTS.md").write_text(AGENTS)
    model = ScriptedChatModel([answer_for({"calc/ops.py": NEW_OPS}), QA_PASS])
    files = [PlannedFile(path="calc/ops.py", action="modify", purpose="Add subtract.")]
    await implement_plan(model, tiny_repo, ticket, make_plan(files), None)
    worker, qa = model.received[0], model.received[1]
    assert read_task(worker)[0] == "implement_file" and read_task(qa)[0] == "review"
    assert "The repository's own instructions (AGENTS.md):\n# Working on calc" in worker[-1].text
    assert read_task(qa)[1]["repository_instructions"].startswith(
        "The repository's own instructions (AGENTS.md)"
    )
