"""A plan's contract for an existing function goes to the file of the repository that defines it."""

import json
import subprocess
from pathlib import Path

import pytest

from graphs.analysis import index_repository, make_context_query_tool, make_find_definition_tool
from graphs.models import ScriptedChatModel
from graphs.planning import create_plan
from graphs.planning.definitions import (
    place_contracts,
)
from graphs.schemas import Analysis, Contract, PlannedFile, TicketContext

FILES = {
    "music/__init__.py": '"""Music."""\n',
    "music/chords.py": (
        "def root(chord: str) -> str:\n"
        '    return chord.split("/")[0].upper()\n\n\n'
        "def label(chord: str) -> dict[str, str]:\n"
        '    return {"text": root(chord)}\n'
    ),
    "music/tempo.py": "def normalise(bpm: str) -> str:\n    return bpm.strip()\n",
    "music/display.py": "def short(title: str) -> str:\n    return title.split()[0]\n",
    "tests/test_music.py": "def label(): ...\n",
}
LABEL_TICKET = TicketContext(
    key="CHORD-1",
    summary="Chord labels drop the bass note of slash chords",
    description="The label shows C for C/G; it should be C/G.",
)


MUSIC = Analysis(
    summary="Chord charts.",
    languages=["Python"],
    frameworks=["pytest"],
    test_command="python -m pytest -q",
    files=sorted(FILES),
)


@pytest.fixture
def music_repo(tmp_path: Path) -> Path:
    for path, text in FILES.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text)
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    subprocess.run(["git", "-C", str(tmp_path), "add", "-A"], check=True)
    return tmp_path


def label_plan(path: str, action: str = "modify") -> dict[str, object]:
    """The small model's plan: the label's change, in the file it guessed."""
    return {
        "summary": "Keep the bass note of a slash chord.",
        "files": [{"path": path, "action": action, "purpose": "Fix the chord's label."}],
        "test_plan": ["C/G gives C/G."],
        "risks": [],
        "contracts": [
            {"path": path, "signature": "def label(chord: str) -> dict[str, str]", "behaviour": "x"}
        ],
    }


def test_the_index_names_the_files_that_define_a_name(music_repo: Path) -> None:
    index = index_repository(music_repo)
    assert index.defining("label") == ["music/chords.py", "tests/test_music.py"]
    assert index.defining("normalise") == ["music/tempo.py"]
    assert index.defining("labe") == []
    tool = make_find_definition_tool(index)
    assert tool.invoke({"name": "root"}) == "music/chords.py"
    assert "No file of the repository defines `missing`" in tool.invoke({"name": "missing"})


async def test_a_contract_planned_in_the_wrong_module_moves_to_the_one_that_defines_it(
    music_repo: Path,
) -> None:
    index = index_repository(music_repo)
    tools = [make_context_query_tool(index), make_find_definition_tool(index)]
    model = ScriptedChatModel([json.dumps(label_plan("music/tempo.py"))])
    plan = await create_plan(model, LABEL_TICKET, MUSIC, None, [], 1, tools=tools)
    assert [(f.path, f.action) for f in plan.files] == [("music/chords.py", "modify")]
    assert [c.path for c in plan.contracts] == ["music/chords.py"]
    note = (
        "Planned `label` in `music/tempo.py`, but the repository defines it in "
        "`music/chords.py`: the plan now changes it there."
    )
    assert note in plan.risks and note in plan.markdown
    assert "music/tempo.py" not in plan.markdown.split("## Risks", 1)[0]


async def test_without_the_lookup_tool_the_plan_stays_as_drafted() -> None:
    model = ScriptedChatModel([json.dumps(label_plan("music/tempo.py"))])
    plan = await create_plan(model, LABEL_TICKET, MUSIC, None, [], 1)
    assert [c.path for c in plan.contracts] == ["music/tempo.py"]


def contract(path: str, name: str = "label") -> Contract:
    return Contract(path=path, signature=f"def {name}(name: str) -> str", behaviour="x")


def modify(path: str) -> PlannedFile:
    return PlannedFile(path=path, action="modify", purpose="Change it.")


def test_a_file_that_keeps_another_contract_stays_and_the_defining_file_joins_it() -> None:
    files = [modify("music/tempo.py")]
    contracts = [contract("music/tempo.py"), contract("music/tempo.py", "tap")]
    defined = {"label": ["music/chords.py"], "tap": []}
    placed_files, placed, notes = place_contracts(files, contracts, defined, "the label")
    assert [f.path for f in placed_files] == ["music/tempo.py", "music/chords.py"]
    assert [c.path for c in placed] == ["music/chords.py", "music/tempo.py"]
    assert len(notes) == 1


@pytest.mark.parametrize(
    "asked", ["The tempo shows no label", "The band says the tempo marks and the label differ"]
)
def test_a_word_of_the_ticket_that_is_a_module_stem_does_not_pin_the_contract(asked: str) -> None:
    placed_files, placed, notes = place_contracts(
        [modify("music/tempo.py")],
        [contract("music/tempo.py")],
        {"label": ["music/chords.py"]},
        asked,
    )
    assert [f.path for f in placed_files] == ["music/chords.py"]
    assert [c.path for c in placed] == ["music/chords.py"]
    assert len(notes) == 1


@pytest.mark.parametrize(
    ("files", "defined", "asked"),
    [
        ([modify("music/tempo.py")], ["music/chords.py", "music/display.py"], ""),
        ([modify("music/tempo.py")], [], ""),
        ([modify("music/chords.py")], ["music/chords.py"], ""),
        ([modify("music/tempo.py")], ["music/chords.py"], "Move label into tempo.py"),
        ([modify("music/tempo.py")], ["music/chords.py"], "Move label into `tempo`"),
        (
            [PlannedFile(path="music/labels.py", action="create", purpose="New.")],
            ["music/chords.py"],
            "",
        ),  # fmt: skip
    ],
    ids=[
        "defined twice",
        "defined nowhere",
        "already there",
        "ticket names it",
        "ticket names its module",
        "new file",
    ],
)
def test_a_contract_stays_where_the_plan_put_it(
    files: list[PlannedFile], defined: list[str], asked: str
) -> None:
    contracts = [contract(files[0].path)]
    placed_files, placed, notes = place_contracts(files, contracts, {"label": defined}, asked)
    assert (placed_files, placed, notes) == (files, contracts, [])
