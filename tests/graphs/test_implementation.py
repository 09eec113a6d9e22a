"""The implementation graph: parallel workers writing whole files from fenced blocks."""

import asyncio
from pathlib import Path
from typing import Any

from langchain_core.messages import BaseMessage
from langchain_core.outputs import ChatResult
from pydantic import PrivateAttr

from graphs.implementation import implement_plan
from graphs.models import ScriptedChatModel
from graphs.schemas import Plan, PlannedFile, Requirements, TicketContext
from llm.prompting import read_task

NEW_OPS = (
    "def add(a: int, b: int) -> int:\n    return a + b\n\n\n"
    "def subtract(a: int, b: int) -> int:\n    return a - b\n"
)
NEW_STRINGS = (
    "def shout(text: str) -> str:\n    return text.upper()\n\n\n"
    "def whisper(text: str) -> str:\n    return text.lower()\n"
)


def make_plan(files: list[PlannedFile]) -> Plan:
    """A plan touching the given files."""
    return Plan(
        version=1,
        summary="Add subtract and whisper.",
        files=files,
        test_plan=["python -m pytest -q"],
        risks=[],
        markdown="# Plan",
    )


def answer_for(contents: dict[str, str], prose: bool = True) -> Any:
    """A scripted answer that writes the file its prompt asks for."""

    def answer(messages: list[BaseMessage]) -> str:
        _, inputs = read_task(messages)
        path = inputs["path"]
        intro = "Here is the updated file.\n\n" if prose else ""
        return f"{intro}**{path}**\n```python\n{contents[path]}```\nDone."

    return answer


QA_PASS = '{"passed": true, "summary": "Matches the plan.", "fixes": []}'


class BarrierModel(ScriptedChatModel):
    """A scripted model whose worker calls all wait until `parties` of them are in flight."""

    _barrier: asyncio.Barrier | None = PrivateAttr(default=None)

    def __init__(self, answers: list[Any], parties: int) -> None:
        super().__init__(answers)
        self._barrier = asyncio.Barrier(parties)

    async def _agenerate(
        self, messages: list[BaseMessage], *args: Any, **kwargs: Any
    ) -> ChatResult:
        assert self._barrier is not None
        if read_task(messages)[0] == "implement_file":
            await asyncio.wait_for(self._barrier.wait(), timeout=5)
        return await super()._agenerate(messages, *args, **kwargs)


async def test_fan_out_runs_one_worker_per_file_in_parallel(
    tiny_repo: Path, ticket: TicketContext, two_files: list[PlannedFile]
) -> None:
    contents = {"calc/ops.py": NEW_OPS, "calc/strings.py": NEW_STRINGS}
    # both calls must be in flight at once, or the barrier times out
    model = BarrierModel([answer_for(contents), answer_for(contents), QA_PASS], parties=2)
    requirements = Requirements(requirements=["subtract exists"], acceptance_criteria=[])
    result = await implement_plan(model, tiny_repo, ticket, make_plan(two_files), requirements)
    assert [(c.path, c.content) for c in result.changes] == [
        ("calc/ops.py", NEW_OPS),
        ("calc/strings.py", NEW_STRINGS),
    ]
    assert not any(c.delete for c in result.changes)
    assert result.tokens > 0 and not result.produced_offline
    assert "Changed 2 of 2" in result.notes
    assert result.qa_passed and result.revisions == 1 and result.tests_passed is None
    prompts = {read_task(m)[1]["path"]: m[-1].text for m in model.received[:2]}
    assert "def add(a: int, b: int)" in prompts["calc/ops.py"]
    assert "- subtract exists" in prompts["calc/ops.py"]
    assert (tiny_repo / "calc/ops.py").read_text().count("def ") == 1  # the graph writes nothing


async def test_unchanged_empty_and_unfenced_answers_change_nothing(
    tiny_repo: Path, ticket: TicketContext
) -> None:
    files = [
        PlannedFile(path="calc/ops.py", action="modify", purpose="unchanged"),
        PlannedFile(path="calc/strings.py", action="modify", purpose="empty"),
        PlannedFile(path="calc/__init__.py", action="modify", purpose="no block"),
    ]
    answers = {
        "calc/ops.py": "calc/ops.py\n```python\n" + (tiny_repo / "calc/ops.py").read_text() + "```",
        "calc/strings.py": "calc/strings.py\n```python\n```",
        "calc/__init__.py": "I would change the docstring.",
    }
    model = ScriptedChatModel([lambda m: answers[read_task(m)[1]["path"]]] * 12)
    result = await implement_plan(model, tiny_repo, ticket, make_plan(files), None)
    assert result.changes == []
    # each asked once more, told the file must change; the revision that changed nothing is
    # tried once more, and the second in a row ends the run
    assert len(model.received) == 12 and result.revisions == 2
    assert "calc/ops.py: unchanged" in result.notes
    assert "calc/strings.py: unchanged, the answer was empty" in result.notes
    assert "calc/__init__.py: unchanged, the answer had no code block" in result.notes


async def test_create_delete_and_unsafe_paths(tiny_repo: Path, ticket: TicketContext) -> None:
    files = [
        PlannedFile(path="calc/div.py", action="create", purpose="Add divide."),
        PlannedFile(path="calc/strings.py", action="delete", purpose="Unused."),
        PlannedFile(path="/etc/passwd", action="modify", purpose="Nope."),
    ]
    model = ScriptedChatModel(["```python\ndef divide(a, b):\n    return a / b\n```", QA_PASS])
    result = await implement_plan(model, tiny_repo, ticket, make_plan(files), None)
    by_path = {c.path: c for c in result.changes}
    assert by_path["calc/div.py"].content == "def divide(a, b):\n    return a / b\n"
    assert by_path["calc/strings.py"].delete and by_path["calc/strings.py"].content == ""
    assert "/etc/passwd" not in by_path and "outside the repository" in result.notes
    assert model.calls == 2  # deletions and unsafe paths never reach a worker's model


async def test_a_long_file_is_windowed_and_spliced_back(
    tiny_repo: Path, ticket: TicketContext
) -> None:
    body = "".join(f"def filler_{i}() -> int:\n    return {i}\n\n\n" for i in range(300))
    body += "def target() -> int:\n    return -1\n"
    (tiny_repo / "calc/big.py").write_text(body)
    files = [PlannedFile(path="calc/big.py", action="modify", purpose="Make target return 1.")]

    def rewrite_window(messages: list[BaseMessage]) -> str:
        shown = messages[-1].text.split("calc/big.py\n```python\n", 1)[1].split("```", 1)[0]
        return "calc/big.py\n```python\n" + shown.replace("return -1", "return 1") + "```"

    model = ScriptedChatModel([rewrite_window, QA_PASS])
    result = await implement_plan(model, tiny_repo, ticket, make_plan(files), None)
    window = read_task(model.received[0])[1]["window"]
    assert window["start_line"] > 1 and window["end_line"] == window["total_lines"]
    assert len(result.changes) == 1
    assert result.changes[0].content == body.replace("return -1\n", "return 1\n")
