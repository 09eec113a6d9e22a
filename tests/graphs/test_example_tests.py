"""The examples a ticket's criteria state become tests before the code, without a model call."""

import subprocess
import sys
from pathlib import Path
from typing import Any

from langchain_core.messages import BaseMessage

from graphs.implementation import implement_plan
from graphs.implementation.criteria.examples import Example, example_tests, examples
from graphs.implementation.criteria.ticket import criteria_path
from graphs.schemas import Contract, Plan, PlannedFile, TicketContext
from harness.local_tester import LocalTester
from tests.graphs.conftest import write_tree
from tests.graphs.test_convergence import worker_prompts
from tests.graphs.test_implementation_loop import Reply, file_answer, tasks_of, team, verdict

CORE = "trail/points.py"
TESTS = "tests/test_points.py"
BUGGY = (
    "def thinned(points, step):\n    return [points[i] for i in range(0, len(points) - 1, step)]\n"
)
FIXED = "def thinned(points, step):\n    return [points[i] for i in range(0, len(points), step)]\n"
REPO = {
    "trail/__init__.py": "",
    CORE: BUGGY,
    TESTS: "from trail.points import thinned\n\n\n"
    "def test_long_track():\n    assert thinned([1, 2, 3, 4], 2) == [1, 3]\n",
}
CRITERIA = (
    "- `thinned([1, 2, 3], 2)` returns `[1, 3]`.\n"
    "- `thinned([], 3)` returns `[]`.\n"
    "- A step of zero raises ValueError."
)
ERROR_TESTS = (
    "import pytest\n\nfrom trail.points import thinned\n\n\n"
    "def test_zero_step():\n    with pytest.raises(ValueError):\n        thinned([1, 2], 0)\n\n\n"
    "def test_one():\n    assert thinned([5], 1) == [6]\n"
)
TICKET = TicketContext(
    key="TRAIL-1",
    summary="thinned drops the last point of a track",
    description="`trail.points.thinned(points, step)` loses the track's last point.",
    acceptance_criteria=CRITERIA,
)
PLAN = Plan(
    version=1,
    summary="Keep the last point.",
    files=[PlannedFile(path=CORE, action="modify", purpose="Keep the track's last point.")],
    test_plan=["python -m pytest -q"],
    risks=[],
    markdown="# Plan",
)


def test_examples_are_read_as_python_and_plain_words_as_text() -> None:
    text = "- `note_name(60)` is `C4`, `note_name(69)` is `A4`.\n- `f(1)` returns `{broken`."
    assert examples(text) == [Example("note_name(60)", "'C4'"), Example("note_name(69)", "'A4'")]
    assert examples("- `Kettle().boil()` returns `0`.\n- It is fast.") == []


def test_examples_read_adverbs_bare_values_and_stated_errors() -> None:
    text = (
        "- `strongest([3, 1, 2])` still returns `3`; `cups(5, 2)` returns 3, and"
        " `cups(0, 2)` should return 0.\n"
        '- `blend([])` and `strongest([])` raise ValueError with a message containing "empty".\n'
        "- `parse('x')` raises KeyError.\n"
        "- `check(-1)` raises InvalidStrength.\n"  # not a built-in: the test could not name it
        "- `steep(minutes=4)` on a pot of 500.0 ml returns 450.0."  # a pot it cannot build
    )
    assert examples(text) == [
        Example("strongest([3, 1, 2])", "3"),
        Example("cups(5, 2)", "3"),
        Example("cups(0, 2)", "0"),
        Example("blend([])", raises="ValueError", match="empty"),
        Example("strongest([])", raises="ValueError", match="empty"),
        Example("parse('x')", raises="KeyError"),
    ]


def test_a_stated_error_is_tested_with_pytest_raises(tmp_path: Path) -> None:
    repo = write_tree(tmp_path, REPO)
    criteria = '- `thinned([1], 0)` raises ValueError with a message containing "step (0)".'
    module = example_tests("X-1", criteria, repo) or ""
    assert "import pytest\n" in module
    assert "    with pytest.raises(ValueError, match='step\\\\ \\\\(0\\\\)'):\n" in module
    assert "        thinned([1], 0)\n" in module
    compile(module, "test_example.py", "exec")


def test_a_module_imports_each_function_from_the_module_defining_it(tmp_path: Path) -> None:
    repo = write_tree(tmp_path, {**REPO, "src/maps/scale.py": "def on_ground(v, a, b):\n    ...\n"})
    criteria = f'{CRITERIA}\n- `on_ground(2, "cm", "km")` returns `0.5`.\n- `nope(1)` is `2`.'
    module = example_tests("X-1", criteria, repo) or ""
    assert "import pytest\n" in module and "from trail.points import thinned\n" in module
    assert "from maps.scale import on_ground\n" in module
    assert 'assert on_ground(2, "cm", "km") == pytest.approx(0.5)\n' in module
    assert "nope" not in module  # no module defines it
    assert example_tests("X-1", "- It is fast.", repo) is None


async def test_the_stated_examples_are_tested_first_and_go_in_the_change(tmp_path: Path) -> None:
    repo = write_tree(tmp_path / "repo", REPO)
    tester = LocalTester(repo, tmp_path / "runs", "python -m pytest -q")
    answers = iter([BUGGY.replace("step):", "step: int):"), FIXED])

    def handle(task: str, inputs: dict[str, Any], messages: list[BaseMessage]) -> Reply:
        if task == "criteria_tests":  # for "A step of zero raises ValueError", which has no call
            assert "- A step of zero raises ValueError." in messages[-1].text
            assert "thinned([1, 2, 3], 2)" not in messages[-1].text  # stated: no model needed
            assert (
                "`trail/points.py` (import from `trail.points`):\n- `thinned(points, step)`"
                in messages[-1].text
            )
            return file_answer(inputs["path"], ERROR_TESTS)
        return verdict(True) if task == "review" else file_answer(CORE, next(answers))

    model = team(handle)
    result = await implement_plan(
        model, repo, TICKET, PLAN, None, tester=tester, max_revisions=3, example_tests=True
    )
    path = criteria_path(TICKET.key)
    changes = {c.path: c.content for c in result.changes}
    assert changes[CORE] == FIXED and result.tests_passed
    assert "assert thinned([1, 2, 3], 2) == [1, 3]" in changes[path]
    error_test = (
        'def test_criterion_1():\n    """A step of zero raises ValueError."""\n'
        "    with pytest.raises(ValueError):\n        thinned([1, 2], 0)\n"
    )
    assert error_test in changes[path]
    assert "[6]" not in changes[path]  # a test asserting a value the model computed is left out
    kept = "examples and 1 tests of criteria kept, 1 fail on the original code as they should"
    assert f"{path}: {kept}" in result.notes
    assert f"Changed 1 of 1 planned files, and {path} beyond the plan." in result.notes
    assert tasks_of(model).count("criteria_tests") == 1  # for the criterion without a call
    covered = {c.criterion: c.test for c in result.criteria}
    assert covered["A step of zero raises ValueError."] == f"{path}::test_criterion_1"
    second = worker_prompts(model, CORE)[1]
    assert "test_example_1" in second  # the failing example went back to the worker


async def test_without_the_setting_no_example_is_written(tmp_path: Path) -> None:
    repo = write_tree(tmp_path / "repo", REPO)
    tester = LocalTester(repo, tmp_path / "runs", "python -m pytest -q")

    def handle(task: str, inputs: dict[str, Any], messages: list[BaseMessage]) -> Reply:
        return verdict(True) if task == "review" else file_answer(CORE, FIXED)

    result = await implement_plan(team(handle), repo, TICKET, PLAN, None, tester=tester)
    assert [c.path for c in result.changes] == [CORE]


async def test_salvage_leaves_out_a_broken_test_file_but_never_the_examples(
    tmp_path: Path,
) -> None:
    repo = write_tree(tmp_path / "repo", REPO)
    tester = LocalTester(repo, tmp_path / "runs", "python -m pytest -q")
    broken = "from trail.points import thinned\n\n\ndef test_long_track():\n    assert False\n"
    plan = PLAN.model_copy(
        update={"files": [*PLAN.files, PlannedFile(path=TESTS, action="modify", purpose="Test.")]}
    )

    first = BUGGY.replace("step):", "step: int):")

    def handle(task: str, inputs: dict[str, Any], messages: list[BaseMessage]) -> Reply:
        if task == "criteria_tests":
            return file_answer(inputs["path"], "")
        if task == "review":  # the code comes first; QA then asks for it and the test file
            return verdict(False, (CORE, "Keep the last point."), (TESTS, "Test it."))
        code = first if inputs["revision"] == 1 else FIXED
        return file_answer(inputs["path"], broken if inputs["path"] == TESTS else code)

    result = await implement_plan(
        team(handle), repo, TICKET, plan, None, tester=tester, max_revisions=2, example_tests=True
    )
    path = criteria_path(TICKET.key)
    assert f"revision 2: kept without {TESTS}, with which" in result.notes
    assert {c.path for c in result.changes} == {CORE, path}
    assert result.tests_passed


def test_a_function_the_change_creates_is_imported_from_the_planned_module_in_its_tests(
    tmp_path: Path,
) -> None:
    repo = write_tree(tmp_path, REPO)
    criteria = f"{CRITERIA}\n- `kept_count(5, 2)` returns `3`.\n- `nope(1)` is `2`."
    contracts = [
        Contract(
            path="trail/points.py", signature="def kept_count(total, step) -> int", behaviour=""
        ),
        Contract(path="tests/test_points.py", signature="def nope(x)", behaviour=""),
    ]
    module = example_tests("X-1", criteria, repo, contracts) or ""
    assert "def test_example_3():\n    from trail.points import kept_count\n\n" in module
    assert "    assert kept_count(5, 2) == 3\n" in module
    assert "nope" not in module  # only a test file's contract names it
    (repo / "tests" / "test_examples.py").write_text(module)
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_examples.py"],
        cwd=repo, capture_output=True, text=True,
    )  # fmt: skip
    assert "ImportError: cannot import name 'kept_count'" in run.stdout
    # thinned([], 3) passes; the buggy thinning fails, and kept_count only in its own test
    assert "2 failed, 1 passed" in run.stdout


async def test_the_acceptance_tests_outlive_a_first_revision_that_is_discarded(
    tmp_path: Path,
) -> None:
    repo = write_tree(tmp_path / "repo", REPO)
    tester = LocalTester(repo, tmp_path / "runs", "python -m pytest -q")
    breaks_long_track = "def thinned(points, step):\n    return []\n"
    answers = iter([breaks_long_track, FIXED])

    def handle(task: str, inputs: dict[str, Any], messages: list[BaseMessage]) -> Reply:
        if task == "criteria_tests":
            return file_answer(inputs["path"], ERROR_TESTS)
        return verdict(True) if task == "review" else file_answer(CORE, next(answers))

    result = await implement_plan(
        team(handle), repo, TICKET, PLAN, None, tester=tester, max_revisions=2, example_tests=True
    )
    path = criteria_path(TICKET.key)
    assert "revision 1: discarded, it broke tests that passed before" in result.notes
    changes = {c.path: c.content for c in result.changes}
    assert changes[CORE] == FIXED
    assert "assert thinned([1, 2, 3], 2) == [1, 3]" in changes[path]  # still there
    assert result.tests_passed and "4 passed" in result.test_output  # 1 own, 3 acceptance


def test_a_function_no_contract_places_is_imported_from_the_subjects_planned_module(
    tmp_path: Path,
) -> None:
    repo = write_tree(tmp_path, {**REPO, "trail/other.py": "def unrelated():\n    pass\n"})
    criteria = f"{CRITERIA}\n- `kept_count(5, 2)` returns `3`."
    planned = ["trail/other.py", CORE]
    module = example_tests("X-1", criteria, repo, [], "thinned", planned) or ""
    assert "    from trail.points import kept_count\n\n    assert kept_count(5, 2) == 3\n" in module
    only = example_tests("X-1", criteria, repo, [], None, ["trail/other.py"]) or ""
    assert "    from trail.other import kept_count\n" in only
    unsure = example_tests("X-1", criteria, repo, [], None, ["trail/other.py", CORE]) or ""
    assert "kept_count" not in unsure  # two planned modules and no subject: no guess


async def first_worker_prompt(tmp_path: Path, example_tests: bool) -> str:
    """The first prompt of the trail ticket's code worker, with or without stated examples."""
    repo = write_tree(tmp_path / "repo", REPO)
    tester = LocalTester(repo, tmp_path / "runs", "python -m pytest -q")

    def handle(task: str, inputs: dict[str, Any], messages: list[BaseMessage]) -> Reply:
        if task == "criteria_tests":
            return file_answer(inputs["path"], "")
        return verdict(True) if task == "review" else file_answer(CORE, FIXED)

    model = team(handle)
    result = await implement_plan(
        model, repo, TICKET, PLAN, None, tester=tester, max_revisions=2,
        example_tests=example_tests,
    )  # fmt: skip
    assert result.tests_passed
    return worker_prompts(model, CORE)[0]


async def test_the_first_worker_is_shown_how_the_acceptance_tests_fail_on_the_original(
    tmp_path: Path,
) -> None:
    first = await first_worker_prompt(tmp_path, example_tests=True)
    assert "fail on the current code, as they must until the change is made" in first
    assert "FAILED tests/test_trail_1_acceptance.py::test_example_1" in first
    assert "assert thinned([1, 2, 3], 2) == [1, 3]" in first  # the test's source
    assert "[1] == [1, 3]" in first  # and how it fails


async def test_without_acceptance_tests_the_first_worker_is_told_it_writes_the_first_version(
    tmp_path: Path,
) -> None:
    first = await first_worker_prompt(tmp_path, example_tests=False)
    assert "This is the first version of the change." in first
    assert "fail on the current code" not in first


async def test_the_first_revision_writes_the_code_alone_when_acceptance_tests_fail(
    tmp_path: Path,
) -> None:
    repo = write_tree(tmp_path / "repo", REPO)
    tester = LocalTester(repo, tmp_path / "runs", "python -m pytest -q")
    with_tests = PLAN.model_copy(
        update={"files": [*PLAN.files, PlannedFile(path=TESTS, action="modify", purpose="Test.")]}
    )
    asked: list[tuple[int, str]] = []

    def handle(task: str, inputs: dict[str, Any], messages: list[BaseMessage]) -> Reply:
        if task == "criteria_tests":
            return file_answer(inputs["path"], "")
        if task == "review":
            return verdict(True)
        asked.append((inputs["revision"], inputs["path"]))
        return file_answer(inputs["path"], FIXED if inputs["path"] == CORE else REPO[TESTS])

    model = team(handle)
    await implement_plan(
        model, repo, TICKET, with_tests, None, tester=tester, max_revisions=2, example_tests=True
    )
    assert [path for revision, path in asked if revision == 1] == [CORE]
    asked.clear()
    without = await implement_plan(
        team(handle), write_tree(tmp_path / "plain", REPO), TICKET, with_tests, None,
        tester=LocalTester(tmp_path / "plain", tmp_path / "runs2", "python -m pytest -q"),
        max_revisions=1,
    )  # fmt: skip
    assert without.revisions == 1
    assert {path for _, path in asked} == {CORE, TESTS}  # without acceptance tests: every file
