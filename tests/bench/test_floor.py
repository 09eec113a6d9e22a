"""bench.floor: one bare call of the model, whole files out, scored as the loop's runs are."""

import asyncio
from pathlib import Path

from langchain_core.language_models.fake_chat_models import FakeListChatModel

from bench.ablation import FLOOR, run_loop
from bench.floor import answered_files, floor_messages
from bench.quality.tickets import load_tickets
from llm.fences import fence


def test_the_floor_is_shown_the_ticket_its_answers_and_every_file() -> None:
    (ticket,) = load_tickets(["slug-separator"])
    paths = ticket.reference_paths()
    system, human = floor_messages(ticket, ticket.repo_dir, paths)
    assert "complete new content" in system.text
    assert ticket.summary in human.text and ticket.acceptance_criteria[0] in human.text
    for path in paths:
        assert fence(path, (ticket.repo_dir / path).read_text(), "python") in human.text


def test_an_answer_gives_the_files_its_blocks_are_headed_by() -> None:
    answer = (
        "Here you go.\n\npkg/util.py\n```python\nA = 1\n```\n\n`pkg/core.py`:\n```python\n"
        "B = 2\n```\n\nother.py\n```python\nC = 3\n```\n"
    )
    changes = answered_files(answer, ["pkg/core.py", "pkg/util.py"])
    assert {c.path: c.content for c in changes} == {
        "pkg/util.py": "A = 1\n",
        "pkg/core.py": "B = 2\n",
    }
    assert [c.path for c in answered_files("```python\nD = 4\n```", ["only.py"])] == ["only.py"]
    assert answered_files("no code at all", ["only.py"]) == []


def test_a_floor_run_is_scored_by_the_hidden_tests(tmp_path: Path) -> None:
    (ticket,) = load_tickets(["slug-separator"])
    answer = "\n\n".join(
        fence(path, (ticket.reference_dir / path).read_text(), "python")
        for path in ticket.reference_paths()
    )
    model = FakeListChatModel(responses=[answer])
    run = asyncio.run(run_loop(model, ticket, FLOOR, 1, 4, tmp_path))
    assert run.resolved and run.hidden_passed == run.hidden_total > 0, run.notes
    assert run.revisions == 1 and run.tokens > 0 and run.diff
