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
    "contacts/__init__.py": '"""Contacts."""\n',
    "contacts/avatar.py": (
        "def initials(name: str) -> str:\n"
        '    return "".join(part[0].upper() for part in name.split())\n\n\n'
        "def badge(name: str) -> dict[str, str]:\n"
        '    return {"text": initials(name)}\n'
    ),
    "contacts/phone.py": "def normalise(number: str) -> str:\n    return number.strip()\n",
    "contacts/display.py": "def short(name: str) -> str:\n    return name.split()[0]\n",
    "tests/test_contacts.py": "def badge(): ...\n",
}
BADGE_TICKET = TicketContext(
    key="CONT-1",
    summary="Contact badge shows the wrong letters for double first names",
    description="The circle shows MW for Mary-Jane Watson; it should be MJW.",
)


CONTACTS = Analysis(
    summary="An address book.",
    languages=["Python"],
    frameworks=["pytest"],
    test_command="python -m pytest -q",
    files=sorted(FILES),
)


@pytest.fixture
def contacts_repo(tmp_path: Path) -> Path:
    for path, text in FILES.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text)
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    subprocess.run(["git", "-C", str(tmp_path), "add", "-A"], check=True)
    return tmp_path


def badge_plan(path: str, action: str = "modify") -> dict[str, object]:
    """The small model's plan: the badge's change, in the file it guessed."""
    return {
        "summary": "Give each part of a hyphenated name its letter.",
        "files": [{"path": path, "action": action, "purpose": "Fix the badge's letters."}],
        "test_plan": ["Mary-Jane Watson gives MJW."],
        "risks": [],
        "contracts": [
            {"path": path, "signature": "def badge(name: str) -> dict[str, str]", "behaviour": "x"}
        ],
    }


def test_the_index_names_the_files_that_define_a_name(contacts_repo: Path) -> None:
    index = index_repository(contacts_repo)
    assert index.defining("badge") == ["contacts/avatar.py", "tests/test_contacts.py"]
    assert index.defining("normalise") == ["contacts/phone.py"]
    assert index.defining("badg") == []
    tool = make_find_definition_tool(index)
    assert tool.invoke({"name": "initials"}) == "contacts/avatar.py"
    assert "No file of the repository defines `missing`" in tool.invoke({"name": "missing"})


async def test_a_contract_planned_in_the_wrong_module_moves_to_the_one_that_defines_it(
    contacts_repo: Path,
) -> None:
    index = index_repository(contacts_repo)
    tools = [make_context_query_tool(index), make_find_definition_tool(index)]
    model = ScriptedChatModel([json.dumps(badge_plan("contacts/phone.py"))])
    plan = await create_plan(model, BADGE_TICKET, CONTACTS, None, [], 1, tools=tools)
    assert [(f.path, f.action) for f in plan.files] == [("contacts/avatar.py", "modify")]
    assert [c.path for c in plan.contracts] == ["contacts/avatar.py"]
    note = (
        "Planned `badge` in `contacts/phone.py`, but the repository defines it in "
        "`contacts/avatar.py`: the plan now changes it there."
    )
    assert note in plan.risks and note in plan.markdown
    assert "contacts/phone.py" not in plan.markdown.split("## Risks", 1)[0]


async def test_without_the_lookup_tool_the_plan_stays_as_drafted() -> None:
    model = ScriptedChatModel([json.dumps(badge_plan("contacts/phone.py"))])
    plan = await create_plan(model, BADGE_TICKET, CONTACTS, None, [], 1)
    assert [c.path for c in plan.contracts] == ["contacts/phone.py"]


def contract(path: str, name: str = "badge") -> Contract:
    return Contract(path=path, signature=f"def {name}(name: str) -> str", behaviour="x")


def modify(path: str) -> PlannedFile:
    return PlannedFile(path=path, action="modify", purpose="Change it.")


def test_a_file_that_keeps_another_contract_stays_and_the_defining_file_joins_it() -> None:
    files = [modify("contacts/phone.py")]
    contracts = [contract("contacts/phone.py"), contract("contacts/phone.py", "dial")]
    defined = {"badge": ["contacts/avatar.py"], "dial": []}
    placed_files, placed, notes = place_contracts(files, contracts, defined, "the badge")
    assert [f.path for f in placed_files] == ["contacts/phone.py", "contacts/avatar.py"]
    assert [c.path for c in placed] == ["contacts/avatar.py", "contacts/phone.py"]
    assert len(notes) == 1


@pytest.mark.parametrize(
    "asked", ["The phone shows no badge", "Finance says the phone bills and the badge differ"]
)
def test_a_word_of_the_ticket_that_is_a_module_stem_does_not_pin_the_contract(asked: str) -> None:
    placed_files, placed, notes = place_contracts(
        [modify("contacts/phone.py")],
        [contract("contacts/phone.py")],
        {"badge": ["contacts/avatar.py"]},
        asked,
    )
    assert [f.path for f in placed_files] == ["contacts/avatar.py"]
    assert [c.path for c in placed] == ["contacts/avatar.py"]
    assert len(notes) == 1


@pytest.mark.parametrize(
    ("files", "defined", "asked"),
    [
        ([modify("contacts/phone.py")], ["contacts/avatar.py", "contacts/display.py"], ""),
        ([modify("contacts/phone.py")], [], ""),
        ([modify("contacts/avatar.py")], ["contacts/avatar.py"], ""),
        ([modify("contacts/phone.py")], ["contacts/avatar.py"], "Move badge into phone.py"),
        ([modify("contacts/phone.py")], ["contacts/avatar.py"], "Move badge into `phone`"),
        (
            [PlannedFile(path="contacts/badges.py", action="create", purpose="New.")],
            ["contacts/avatar.py"],
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
    placed_files, placed, notes = place_contracts(files, contracts, {"badge": defined}, asked)
    assert (placed_files, placed, notes) == (files, contracts, [])


CLIMATE = {
    "climate/__init__.py": '"""Climate sensors."""\n',
    "climate/readings.py": "class Reading:\n    sensor: str\n    celsius: float\n",
    "climate/parse.py": (
        "def parse_line(line):\n    return line.split(',')\n\n\n"
        "def parse_log(text):\n    return [parse_line(x) for x in text.splitlines()]\n"
    ),
    "climate/report.py": (
        "def describe(reading):\n    return reading.sensor\n\n\n"
        "def summary(readings):\n    return '\\n'.join(map(describe, readings))\n"
    ),
    "tests/test_climate.py": "def test_parse_line(): ...\n",
}
HUMIDITY_SUMMARY = (
    "The plan modifies `climate/readings.py` to keep the humidity. The `parse_line` function is"
    " updated to handle the new format, and the `parse_log` function is modified to skip blank"
    " lines. The `describe` and `summary` functions are updated to show it."
)


def test_the_names_a_plan_says_it_changes_are_those_of_sentences_that_change_them() -> None:
    assert changed_names([HUMIDITY_SUMMARY]) == ["parse_line", "parse_log", "describe", "summary"]
    kept = "The `describe` function stays unchanged. It calls `summary()` as before; `io` is fixed."
    assert changed_names([kept]) == []  # kept as it is, only used, or too short a name


def test_the_files_defining_changed_names_join_the_plan_up_to_a_limit() -> None:
    files = [modify("climate/readings.py")]
    defined = {
        "parse_line": ["climate/parse.py"],
        "parse_log": ["climate/parse.py"],
        "describe": ["climate/report.py"],
        "twice": ["a.py", "b.py"],
        "Reading": ["climate/readings.py"],
    }
    names = ["parse_line", "parse_log", "describe", "twice", "Reading", "nowhere"]
    joined, notes = join_defining_files(files, names, defined)
    assert [(f.path, f.action) for f in joined] == [
        ("climate/readings.py", "modify"),
        ("climate/parse.py", "modify"),
        ("climate/report.py", "modify"),
    ]
    assert joined[1].purpose == "Change `parse_line`, `parse_log` as the plan says."
    assert notes[0] == (
        "Added `climate/parse.py`: the plan changes `parse_line`, `parse_log`, defined there."
    )
    many = {f"name_{i}": [f"m{i}.py"] for i in range(5)}
    assert len(join_defining_files([], list(many), many)[0]) == MAX_JOINED


async def test_a_plan_that_changes_functions_of_other_modules_plans_those_modules(
    tmp_path: Path,
) -> None:
    for path, text in CLIMATE.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text)
    index = index_repository(tmp_path)
    tools = [make_context_query_tool(index), make_find_definition_tool(index)]
    answer = {
        "summary": HUMIDITY_SUMMARY,
        "files": [{"path": "climate/readings.py", "action": "modify", "purpose": "Humidity."}],
        "test_plan": ["kitchen,21.5,40 gives humidity 40.0."],
        "risks": [],
    }
    ticket = TicketContext(key="HUM-1", summary="Show humidity", description="Lines have 3 values.")
    analysis = Analysis(
        summary="Climate sensors.", languages=["Python"], frameworks=["pytest"],
        test_command="python -m pytest -q", files=sorted(CLIMATE),
    )  # fmt: skip
    plan = await create_plan(
        ScriptedChatModel([json.dumps(answer)]), ticket, analysis, None, [], 1, tools=tools
    )
    assert [f.path for f in plan.files] == [
        "climate/readings.py",
        "climate/parse.py",
        "climate/report.py",
    ]
    assert any(r.startswith("Added `climate/report.py`") for r in plan.risks)
    assert "`climate/report.py`" in plan.markdown.split("## Risks", 1)[0]
