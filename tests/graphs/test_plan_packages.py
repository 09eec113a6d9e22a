"""New code planned in a package's `__init__.py` goes to the package's planned module."""

import json
import subprocess
from pathlib import Path

import pytest

from graphs.analysis import index_repository, make_context_query_tool, make_find_definition_tool
from graphs.models import ScriptedChatModel
from graphs.planning import create_plan
from graphs.planning.packages import asks_for_package, into_modules
from graphs.schemas import Analysis, Contract, PlannedFile, TicketContext

FILES = {
    "listing/__init__.py": '"""List helpers for the API."""\n',
    "listing/pages.py": (
        "def paginate(items: list, page: int, per_page: int) -> list:\n"
        "    start = page * per_page - per_page + 1\n"
        "    return items[start:start + per_page]\n"
    ),
    "tests/test_pages.py": "from listing.pages import paginate\n",
}
TICKET = TicketContext(
    key="PAGE-1",
    summary="paginate skips the first item and has no page count",
    description=(
        "`listing.pages.paginate(items, page, per_page)` returns one page of a list. Page 1"
        " starts at the second item. The API also needs the number of pages: add"
        " `page_count(total, per_page)`."
    ),
)
ANALYSIS = Analysis(
    summary="List helpers.",
    languages=["Python"],
    frameworks=["pytest"],
    test_command="python -m pytest -q",
    files=sorted(FILES),
)


def planned(path: str, purpose: str = "Change it.") -> PlannedFile:
    return PlannedFile(path=path, action="modify", purpose=purpose)


def contract(path: str, name: str) -> Contract:
    return Contract(path=path, signature=f"def {name}(total: int) -> int", behaviour="x")


async def test_a_new_function_planned_in_the_package_init_goes_to_its_module(
    tmp_path: Path,
) -> None:
    for path, text in FILES.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text)
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    index = index_repository(tmp_path)
    tools = [make_context_query_tool(index), make_find_definition_tool(index)]
    answer = {
        "summary": "Start pages at the first item and count the pages.",
        "files": [
            {"path": "listing/pages.py", "action": "modify", "purpose": "Fix the offset."},
            {"path": "listing/__init__.py", "action": "modify", "purpose": "Add `page_count`."},
        ],
        "test_plan": ["page_count(5, 2) is 3."],
        "risks": [],
        "contracts": [
            {
                "path": "listing/pages.py",
                "signature": "def paginate(items: list, page: int, per_page: int) -> list",
                "behaviour": "One page.",
            },
            {
                "path": "listing/__init__.py",
                "signature": "def page_count(total: int, per_page: int) -> int",
                "behaviour": "The number of pages.",
            },
        ],
    }
    model = ScriptedChatModel([json.dumps(answer)])
    plan = await create_plan(model, TICKET, ANALYSIS, None, [], 1, tools=tools)
    assert [f.path for f in plan.files] == ["listing/pages.py"]
    assert plan.files[0].purpose == "Fix the offset. Add `page_count`."
    assert [c.path for c in plan.contracts] == ["listing/pages.py", "listing/pages.py"]
    note = next(r for r in plan.risks if r.startswith("Planned `listing/__init__.py`"))
    assert "`listing/pages.py`" in note and note in plan.markdown


def test_the_module_holding_contracts_takes_the_package_code() -> None:
    files = [
        planned("billing/invoice.py"),
        planned("billing/money.py"),
        planned("billing/__init__.py", "Add a `DEFAULT_RATE` constant."),
    ]
    contracts = [contract("billing/invoice.py", "total")]
    result, placed, notes = into_modules(files, contracts, {}, "Make the rate a parameter.")
    assert [f.path for f in result] == ["billing/invoice.py", "billing/money.py"]
    assert result[0].purpose == "Change it. Add a `DEFAULT_RATE` constant."
    assert placed == contracts and len(notes) == 1


@pytest.mark.parametrize(
    ("files", "contracts", "defined", "asked"),
    [
        (
            [planned("listing/pages.py"), planned("listing/__init__.py")],
            [contract("listing/__init__.py", "page_count")],
            {},
            "Export it: `from listing import page_count`.",
        ),
        (
            [planned("listing/pages.py"), planned("listing/__init__.py")],
            [contract("listing/__init__.py", "page_count")],
            {},
            "Call it as `listing.page_count(5, 2)`.",
        ),
        (
            [planned("listing/pages.py"), planned("listing/__init__.py")],
            [contract("listing/__init__.py", "page_count")],
            {},
            "Add it to listing/__init__.py.",
        ),
        (
            [planned("listing/pages.py"), planned("listing/__init__.py")],
            [contract("listing/__init__.py", "page_count")],
            {"page_count": ["listing/__init__.py"]},
            "",
        ),
        ([planned("listing/__init__.py")], [contract("listing/__init__.py", "page_count")], {}, ""),
        (
            [planned("listing/a.py"), planned("listing/b.py"), planned("listing/__init__.py")],
            [],
            {},
            "",
        ),
        ([planned("__init__.py"), planned("pages.py")], [], {}, ""),
    ],
    ids=[
        "import from the package",
        "name through the package",
        "init named",
        "defined in the init",
        "no module planned",
        "no one module",
        "top level",
    ],
)
def test_the_package_init_stays_planned(
    files: list[PlannedFile], contracts: list[Contract], defined: dict[str, list[str]], asked: str
) -> None:
    assert into_modules(files, contracts, defined, asked) == (files, contracts, [])


def test_a_module_reached_through_the_package_is_not_the_package_asked_for() -> None:
    assert not asks_for_package("`listing.pages.paginate(items)`", "listing", {"pages"})
    assert asks_for_package("`listing.paginate(items)`", "listing", {"pages"})
    assert asks_for_package("from src.listing import paginate", "src/listing", set())
