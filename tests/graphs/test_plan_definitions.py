"""A plan's contract for an existing function goes to the file of the repository that defines it."""

import json
import subprocess
from pathlib import Path

import pytest

from graphs.analysis import index_repository, make_context_query_tool, make_find_definition_tool
from graphs.models import ScriptedChatModel
from graphs.planning import create_plan
from graphs.planning.definitions import (
    MAX_JOINED,
    changed_names,
    join_defining_files,
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


BIRDING = {
    "birding/__init__.py": '"""Bird sightings."""\n',
    "birding/sightings.py": "class Sighting:\n    species: str\n    count: int\n",
    "birding/rows.py": (
        "def read_row(row):\n    return row.split(',')\n\n\n"
        "def read_log(text):\n    return [read_row(x) for x in text.splitlines()]\n"
    ),
    "birding/board.py": (
        "def caption(sighting):\n    return sighting.species\n\n\n"
        "def tally(sightings):\n    return '\\n'.join(map(caption, sightings))\n"
    ),
    "tests/test_birding.py": "def test_read_row(): ...\n",
}
WEATHER_SUMMARY = (
    "The plan modifies `birding/sightings.py` to keep the weather. The `read_row` function is"
    " updated to handle the new format, and the `read_log` function is modified to skip blank"
    " lines. The `caption` and `tally` functions are updated to show it."
)


def test_the_names_a_plan_says_it_changes_are_those_of_sentences_that_change_them() -> None:
    assert changed_names([WEATHER_SUMMARY]) == ["read_row", "read_log", "caption", "tally"]
    kept = "The `caption` function stays unchanged. It calls `tally()` as before; `io` is fixed."
    assert changed_names([kept]) == []  # kept as it is, only used, or too short a name


def test_the_files_defining_changed_names_join_the_plan_up_to_a_limit() -> None:
    files = [modify("birding/sightings.py")]
    defined = {
        "read_row": ["birding/rows.py"],
        "read_log": ["birding/rows.py"],
        "caption": ["birding/board.py"],
        "twice": ["a.py", "b.py"],
        "Sighting": ["birding/sightings.py"],
    }
    names = ["read_row", "read_log", "caption", "twice", "Sighting", "nowhere"]
    joined, notes = join_defining_files(files, names, defined)
    assert [(f.path, f.action) for f in joined] == [
        ("birding/sightings.py", "modify"),
        ("birding/rows.py", "modify"),
        ("birding/board.py", "modify"),
    ]
    assert joined[1].purpose == "Change `read_row`, `read_log` as the plan says."
    assert notes[0] == (
        "Added `birding/rows.py`: the plan changes `read_row`, `read_log`, defined there."
    )
    many = {f"name_{i}": [f"m{i}.py"] for i in range(5)}
    assert len(join_defining_files([], list(many), many)[0]) == MAX_JOINED


async def test_a_plan_that_changes_functions_of_other_modules_plans_those_modules(
    tmp_path: Path,
) -> None:
    for path, text in BIRDING.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text)
    index = index_repository(tmp_path)
    tools = [make_context_query_tool(index), make_find_definition_tool(index)]
    answer = {
        "summary": WEATHER_SUMMARY,
        "files": [{"path": "birding/sightings.py", "action": "modify", "purpose": "Weather."}],
        "test_plan": ["robin,3,rain gives the weather rain."],
        "risks": [],
    }
    ticket = TicketContext(key="BIRD-1", summary="Show weather", description="Rows have 3 values.")
    analysis = Analysis(
        summary="Bird sightings.", languages=["Python"], frameworks=["pytest"],
        test_command="python -m pytest -q", files=sorted(BIRDING),
    )  # fmt: skip
    plan = await create_plan(
        ScriptedChatModel([json.dumps(answer)]), ticket, analysis, None, [], 1, tools=tools
    )
    assert [f.path for f in plan.files] == [
        "birding/sightings.py",
        "birding/rows.py",
        "birding/board.py",
    ]
    assert any(r.startswith("Added `birding/board.py`") for r in plan.risks)
    assert "`birding/board.py`" in plan.markdown.split("## Risks", 1)[0]
