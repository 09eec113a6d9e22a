"""Criteria the examples reader cannot test: the model writes the call, only stated checks stay."""

from pathlib import Path
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage

from graphs.implementation import implement_plan
from graphs.implementation.criteria.examples import example_tests
from graphs.implementation.criteria.node import CRITERION_TOKENS, MODULE_TOKENS, code_words
from graphs.implementation.criteria.ticket import criteria_path
from graphs.implementation.criteria.written_tests import (
    Stated,
    stated_checks,
    with_written_tests,
    written_tests,
)
from graphs.implementation.state import ImplementationState
from graphs.schemas import Plan, PlannedFile, TicketContext
from harness.local_tester import LocalTester
from llm.prompting import read_task
from tests.graphs.conftest import write_tree
from tests.graphs.test_example_tests import CORE, FIXED, PLAN, REPO, TICKET
from tests.graphs.test_implementation_loop import Reply, file_answer, team, verdict
from tests.graphs.test_worker_retries import BoundedTeam

POOL_CODE = "def chlorine(volumes):\n    return sum(volumes)\n"
PAINT = (
    "import math\n\nCOVERAGE_M2 = 10\n\n\nclass Wall:\n    def area(self):\n        return 1\n\n\n"
    "def paint_litres(length, width, height, primer_ml):\n"
    "    return math.ceil(primer_ml / 500) / 2\n"
)
BIG_HALL = "The 6 x 5 x 4 m hall primed with 2 l gets a paint estimate of 19.5 litres."
HIVES = "def read_row(row):\n    return row\n\n\ndef caption(inspection):\n    return inspection\n"
RADIO = {
    "radio/__init__.py": "",
    "radio/playlist.py": "class Playlist:\n    def length(self, fade=0):\n        return 0.0\n",
}


def test_criteria_stating_an_error_or_a_value_no_example_tests() -> None:
    text = (
        "- A negative dose raises ValueError.\n"
        "- Unknown units still raise ValueError.\n"  # the code raises it already
        "- `loudest([])` raises ValueError.\n"  # a stated call: an example, no model needed
        "- A bad code raises InvalidCode.\n"  # not built in: a test could not name it
        "- A tempo below 1 raises a ValueError or a TypeError.\n"
        "- `length(fade=10)` on a playlist of 200.0 seconds returns 180.0.\n"
        '- "sat" and "sun" are True; "mon" is False.\n'
        "- `f(1)` returns `[1, 2]`; row 3 returns `[5]`.\n"  # the first is an example
        "- `note_name(60)` is `C4`.\n"  # tested as stated: nothing for the model
        "- It is fast."
    )
    assert stated_checks(text) == {
        "A negative dose raises ValueError.": Stated(errors=frozenset({"ValueError"})),
        "A tempo below 1 raises a ValueError or a TypeError.": Stated(
            errors=frozenset({"ValueError"})  # the error right after "raises"
        ),
        "`length(fade=10)` on a playlist of 200.0 seconds returns 180.0.": Stated(values=(180.0,)),
        '"sat" and "sun" are True; "mon" is False.': Stated(values=(True, False)),
        "`f(1)` returns `[1, 2]`; row 3 returns `[5]`.": Stated(values=([5],)),
    }


def test_values_a_reporter_states_as_shown_or_got_are_stated_values() -> None:
    text = (
        "- The 6 x 5 x 4 m hall primed with 2 l gets a paint estimate of 19.5 litres.\n"
        "- The label for sodium chloride shows `NaCl`, and for calcium oxide `CaO`.\n"
        "- A pour of 0.33 litres should be 33 centilitres.\n"
        "- The total comes out as `13`.\n"
        "- The user gets an error message.\n"  # no value
        "- The label shows the first letters.\n"
        "- `pow 2 10` on the command line prints `1024`.\n"  # output, not a value returned
        "- `power(2, 3)` returns `8` and `power(2.5, 2)` returns `6.25`.\n"  # examples
    )
    assert stated_checks(text) == {
        BIG_HALL: Stated(values=(19.5,)),
        "The label for sodium chloride shows `NaCl`, and for calcium oxide `CaO`.": Stated(
            values=("NaCl", "CaO")
        ),
        "A pour of 0.33 litres should be 33 centilitres.": Stated(values=(33,)),
        "The total comes out as `13`.": Stated(values=(13,)),
    }


def test_none_and_a_line_of_display_text_are_stated_values_and_code_is_not() -> None:
    text = (
        "- A row with two values keeps its `brood` as None.\n"
        "- Its Inspection's `brood` is None.\n"
        "- The board line reads `hive3: 12.5 kg, 40 % brood`.\n"
        "- The check is `size % 2`.\n"  # code, not a value
    )
    assert stated_checks(text) == {
        "Its Inspection's `brood` is None.": Stated(values=(None,)),
        "The board line reads `hive3: 12.5 kg, 40 % brood`.": Stated(
            values=("hive3: 12.5 kg, 40 % brood",)
        ),
    }


def test_a_test_asserting_a_stated_none_or_display_text_is_kept(tmp_path: Path) -> None:
    repo = write_tree(tmp_path / "repo", {"apiary/__init__.py": "", "apiary/rows.py": HIVES})
    module = (
        "from apiary.rows import read_row, caption\n\n\n"
        "def test_none():\n    assert read_row('hive2,19.0').brood is None\n\n\n"
        "def test_shown():\n    assert caption(read_row('hive3,12.5,40')) == "
        "'hive3: 12.5 kg, 40 % brood'\n"
    )
    stated = Stated(values=(None, "hive3: 12.5 kg, 40 % brood"))
    imports, tests = written_tests(module, "the criterion", stated, repo)
    assert imports == ["from apiary.rows import read_row, caption"]
    assert [t.splitlines()[0] for t in tests] == [
        "def test_criterion_1():",
        "def test_criterion_2():",
    ]


def test_only_tests_expecting_a_stated_error_from_known_names_are_kept(tmp_path: Path) -> None:
    repo = write_tree(tmp_path, RADIO)
    module = (
        "import pytest\nfrom radio.playlist import Playlist\n\n\n"
        "def test_below_zero():\n    playlist = Playlist()\n    with pytest.raises(ValueError):\n"
        "        playlist.length(fade=-1)\n\n\n"
        "def test_value():\n    assert Playlist().length(fade=10) == 16.8\n\n\n"
        "def test_other_error():\n    with pytest.raises(KeyError):\n"
        "        Playlist().length(-1)\n\n\n"
        "def test_value_inside():\n    with pytest.raises(ValueError):\n"
        "        assert Playlist().length(101) == 0\n"
    )
    criterion = "A fade below 0 raises ValueError."
    stated = Stated(errors=frozenset({"ValueError"}))
    imports, tests = written_tests(module, criterion, stated, repo, first=3)
    assert imports == ["import pytest", "from radio.playlist import Playlist"]
    assert tests == [
        'def test_criterion_3():\n    """A fade below 0 raises ValueError."""\n'
        "    playlist = Playlist()\n    with pytest.raises(ValueError):\n"
        "        playlist.length(fade=-1)\n"
    ]
    unknown = module.replace(
        "from radio.playlist import Playlist", "from radio.playlists import Playlist"
    )
    assert written_tests(unknown, criterion, stated, repo) == ([], [])
    assert written_tests("def test_(:\n", criterion, stated, repo) == ([], [])


def test_only_tests_asserting_a_stated_value_of_a_call_are_kept(tmp_path: Path) -> None:
    repo = write_tree(tmp_path, RADIO)
    module = (
        "import pytest\nfrom radio.playlist import Playlist\n\n\n"
        "def test_stated():\n    playlist = Playlist()\n    playlist.add('a', 100.0, 2)\n"
        "    assert playlist.length(fade=10) == 180.0\n\n\n"
        "def test_approx():\n    playlist = Playlist()\n    playlist.add('a', 200.0)\n"
        "    assert playlist.length(fade=10) == pytest.approx(180)\n\n\n"
        "def test_computed():\n    assert Playlist().length(fade=10) == 16.2\n\n\n"
        "def test_no_call():\n    seconds = 180.0\n    assert seconds == 180.0\n\n\n"
        "def test_bool_is_not_one():\n    assert Playlist().length() == True\n\n\n"
        "def test_loop():\n    for f in (10,):\n        assert Playlist().length(fade=f) == 180.0\n"
    )
    criterion = "`length(fade=10)` on a playlist of 200.0 seconds returns 180.0."
    imports, tests = written_tests(module, criterion, Stated(values=(180.0, 1)), repo)
    assert [t.split("\n")[0] for t in tests] == [
        "def test_criterion_1():",
        "def test_criterion_2():",
    ]
    assert "playlist.add('a', 100.0, 2)" in tests[0] and "pytest.approx(180)" in tests[1]


def test_keyword_arguments_must_be_words_the_ticket_or_the_code_spells(tmp_path: Path) -> None:
    repo = write_tree(tmp_path, {"pool/__init__.py": "", "pool/treatment.py": POOL_CODE})
    module = (
        "import pytest\nfrom pool.treatment import chlorine\n\n\n"
        "def test_copied():\n    with pytest.raises(ValueError):\n"
        "        chlorine([100.0], strength=-10)\n\n\n"
        "def test_dose():\n    with pytest.raises(ValueError):\n"
        "        chlorine([100.0], dose=-0.1)\n"
    )
    criterion = "A negative dose raises ValueError."
    words = {"chlorine", "dose", "negative", "volumes"}
    stated = Stated(errors=frozenset({"ValueError"}))
    _, tests = written_tests(module, criterion, stated, repo, words=words)
    assert len(tests) == 1 and "dose=-0.1" in tests[0]


def test_a_test_expecting_the_error_at_an_allowed_bound_is_dropped(tmp_path: Path) -> None:
    # "below 0 or above 100": 0 and 100 are allowed, so they must not raise
    repo = write_tree(tmp_path, RADIO)
    cases = {"-10": True, "0": False, "100": False, "-100": True, "100.5": True}
    module = "import pytest\nfrom radio.playlist import Playlist\n" + "".join(
        f"\n\ndef test_{n}():\n    with pytest.raises(ValueError):\n"
        f"        playlist = Playlist()\n        playlist.add('song', 100, 4)\n"
        f"        playlist.length(fade={d})\n"
        for n, d in enumerate(cases)
    )
    criterion = "A fade below 0 or above 100 raises ValueError."
    _, tests = written_tests(module, criterion, Stated(errors=frozenset({"ValueError"})), repo)
    kept = [d for d, right in cases.items() if right]
    assert [t.rsplit("fade=", 1)[1].rstrip(")\n") for t in tests] == kept


def test_the_module_holds_the_examples_then_the_written_tests(tmp_path: Path) -> None:
    repo = write_tree(tmp_path, REPO)
    spelled = example_tests("X-1", "- `thinned([], 3)` returns `[]`.", repo)
    test = "def test_criterion_1():\n    with pytest.raises(ValueError):\n        thinned([1], 0)\n"
    module = with_written_tests(spelled, "X-1", ["from trail.points import thinned"], [test])
    assert module.count("from trail.points import thinned") == 1 and "import pytest\n" in module
    assert module.index("def test_example_1") < module.index("def test_criterion_1")
    compile(module, "test_x.py", "exec")
    alone = with_written_tests(None, "X-1", ["import pytest"], [test])
    assert alone.startswith('"""Acceptance tests of X-1, as its criteria state them."""\n')
    compile(alone, "test_x.py", "exec")


BROKEN = (  # `thin`, a name nothing defines: a NameError on every run
    "import pytest\n\n\ndef test_zero():\n    with pytest.raises(ValueError):\n"
    "        thin([1], 0)\n"
)


def broken_criteria_tests(task: str, inputs: dict[str, Any], messages: list[BaseMessage]) -> Reply:
    """A team whose criteria tests are broken and whose worker fixes the code."""
    if task == "criteria_tests":
        return file_answer(inputs["path"], BROKEN)
    return verdict(True) if task == "review" else file_answer(CORE, FIXED)


async def test_a_broken_written_test_leaves_the_examples_alone(tmp_path: Path) -> None:
    repo = write_tree(tmp_path / "repo", REPO)
    tester = LocalTester(repo, tmp_path / "runs", "python -m pytest -q")
    handle = broken_criteria_tests

    result = await implement_plan(
        team(handle), repo, TICKET, PLAN, None, tester=tester, max_revisions=2, example_tests=True
    )
    path = criteria_path(TICKET.key)
    changes = {c.path: c.content for c in result.changes}
    assert "test_example_1" in changes[path] and "thin([1], 0)" not in changes[path]
    assert (
        "examples and 1 tests of criteria dropped, " in result.notes
        and "is broken: " in result.notes
    )
    assert "examples kept, 1 fail on the original code as they should" in result.notes


async def test_a_criterions_test_is_asked_within_a_few_hundred_tokens(tmp_path: Path) -> None:
    repo = write_tree(tmp_path / "repo", REPO)
    tester = LocalTester(repo, tmp_path / "runs", "python -m pytest -q")
    tasks: list[str] = []

    def answer(messages: list[BaseMessage]) -> str:
        task, inputs = read_task(messages)
        tasks.append(task or "")
        if task == "criteria_tests":
            return file_answer(inputs["path"], "def test_nothing():\n    pass\n")
        return verdict(True) if task == "review" else file_answer(CORE, FIXED)

    model = BoundedTeam([answer] * 10)
    await implement_plan(
        model, repo, TICKET, PLAN, None, tester=tester, max_revisions=1, example_tests=True
    )
    asked = [
        bound for task, bound in zip(tasks, model.bounds, strict=True) if task == "criteria_tests"
    ]
    assert asked == [MODULE_TOKENS + CRITERION_TOKENS], (tasks, model.bounds)


async def test_a_criterions_test_cut_at_its_bound_keeps_its_finished_tests(tmp_path: Path) -> None:
    repo = write_tree(tmp_path / "repo", REPO)
    tester = LocalTester(repo, tmp_path / "runs", "python -m pytest -q")
    finished = (
        "import pytest\n\nfrom trail.points import thinned\n\n\n"
        "def test_zero():\n    with pytest.raises(ValueError):\n        thinned([1], 0)\n\n\n"
    )
    running_on = "def test_more():\n" + "    thinned([1], 1)\n" * 40 + "    thinned([1"

    def handle(task: str, inputs: dict[str, Any], messages: list[BaseMessage]) -> Reply:
        if task == "criteria_tests":
            cut = file_answer(inputs["path"], finished + running_on).removesuffix("```")
            return AIMessage(content=cut, response_metadata={"finish_reason": "length"})
        return verdict(True) if task == "review" else file_answer(CORE, FIXED)

    result = await implement_plan(
        team(handle), repo, TICKET, PLAN, None, tester=tester, max_revisions=2, example_tests=True
    )
    module = {c.path: c.content for c in result.changes}[criteria_path(TICKET.key)]
    assert "thinned([1], 0)" in module and "test_more" not in module
    assert "examples and 1 tests of criteria kept" in result.notes


def test_a_test_checking_a_stated_result_on_inputs_of_its_own_is_dropped(tmp_path: Path) -> None:
    repo = write_tree(tmp_path, RADIO)
    module = (
        "from radio.playlist import Playlist\n\n\n"
        "def test_invented_playlist():\n    playlist = Playlist()\n"
        "    playlist.add('intro', 1.5, 4)\n    playlist.add('outro', 12.0)\n"
        "    assert round(playlist.length(fade=10), 2) == 180.0\n\n\n"
        "def test_empty_playlist():\n    assert Playlist().length(fade=10) == 180.0\n\n\n"
        "def test_two_songs():\n    playlist = Playlist()\n    playlist.add('a', 150.0)\n"
        "    playlist.add('b', 50.0)\n    assert playlist.length(fade=10) == 180.0\n"
    )
    criterion = "`length(fade=10)` on a playlist of 200.0 seconds returns 180.0."
    tests = written_tests(module, criterion, Stated(values=(180.0,)), repo)[1]
    assert len(tests) == 1 and "playlist.add('a', 150.0)" in tests[0]


def test_a_repository_class_a_test_uses_unimported_is_imported(tmp_path: Path) -> None:
    repo = write_tree(
        tmp_path / "repo",
        {
            "decor/__init__.py": "",
            "decor/rooms.py": "class Room:\n    pass\n",
            "decor/paint.py": "def paint_litres(room):\n    return 0.0\n",
        },
    )
    module = (
        "from decor.paint import paint_litres\n\n\n"
        "def test_big():\n    hall = Room(6, 5, 4, primer_ml=2000)\n"
        "    assert paint_litres(hall) == 19.5\n\n\n"
        "def test_unknown():\n    assert paint_litres(Hall(6, 5, 4, 2)) == 19.5\n"
    )
    imports, tests = written_tests(module, BIG_HALL, Stated(values=(19.5,)), repo)
    assert imports == [
        "from decor.paint import paint_litres",
        "from decor.rooms import Room",
    ]
    assert len(tests) == 2  # `Hall` is nowhere: its test stays unimported and fails as broken


def test_a_test_setting_up_another_criterions_inputs_is_dropped(tmp_path: Path) -> None:
    repo = write_tree(tmp_path / "repo", {"decor/__init__.py": "", "decor/paint.py": PAINT})
    module = (
        "from decor.paint import paint_litres\n\n\n"
        "def test_big():\n    assert paint_litres(6, 5, 4, primer_ml=2000) == 19.5\n\n\n"
        "def test_small_in_the_big_hall():\n"
        "    assert paint_litres(6, 5, 4, primer_ml=3200) == 3.5\n"
    )
    small = "A 3 x 1.5 x 1 m cupboard primed with 3.2 l still gets 3.5 litres."
    kept = written_tests(module, BIG_HALL, Stated(values=(19.5,)), repo, others=[small])[1]
    assert [t.splitlines()[2] for t in kept] == [
        "    assert paint_litres(6, 5, 4, primer_ml=2000) == 19.5"
    ]
    assert written_tests(module, small, Stated(values=(3.5,)), repo, others=[BIG_HALL]) == ([], [])


def test_checks_of_values_not_stated_are_dropped_beside_a_stated_one(tmp_path: Path) -> None:
    repo = write_tree(tmp_path / "repo", {"apiary/__init__.py": "", "apiary/rows.py": HIVES})
    module = (
        "from apiary.rows import read_row\n\n\n"
        "def test_brood():\n    inspection = read_row('hive3,12.5,40')\n"
        "    assert inspection.hive == 'hive3'\n    assert inspection.brood == 40.0\n\n\n"
        "def test_only_unstated():\n    assert read_row('hive2,19').hive == 'hive2'\n\n\n"
        "def test_no_call():\n    brood = 40.0\n    assert brood == 40.0\n"
    )
    criterion = "`hive3,12.5,40` reads as an Inspection whose `brood` is 40.0."
    imports, tests = written_tests(module, criterion, Stated(values=(40.0,)), repo)
    assert tests == [
        f'def test_criterion_1():\n    """{criterion}"""\n'
        "    inspection = read_row('hive3,12.5,40')\n    assert inspection.brood == 40.0\n"
    ]


def test_a_module_constant_or_import_may_be_imported_a_method_may_not(tmp_path: Path) -> None:
    repo = write_tree(tmp_path / "repo", {"decor/__init__.py": "", "decor/paint.py": PAINT})
    head = "from decor.paint import paint_litres, {name}\n\n\n"
    test = "def test_big():\n    assert paint_litres(6, 5, 4, primer_ml=2000) == 19.5\n"
    stated = Stated(values=(19.5,))
    for name, kept in [("COVERAGE_M2", True), ("math", True), ("area", False), ("nothing", False)]:
        found = written_tests(head.format(name=name) + test, "19.5 litres", stated, repo)[1]
        assert bool(found) is kept, name


def test_string_keys_must_be_spelled_as_code_by_the_ticket_or_the_code(tmp_path: Path) -> None:
    formula = 'def tag(name):\n    return {"text": name[:1], "colour": "#fff"}\n'
    repo = write_tree(tmp_path, {"chem/__init__.py": "", "chem/formula.py": formula})
    (repo / "tests").mkdir()
    ticket = TicketContext(
        key="CHEM-1",
        summary="Formula letters",
        description='The label shows "NaC" for sodium chloride; `symbol` drops a letter.',
        acceptance_criteria="- The label for sodium chloride shows `NaCl`.",
    )
    plan = Plan(
        version=1, summary="Fix the letters", test_plan=[], risks=[], markdown="",
        files=[PlannedFile(path="chem/formula.py", action="modify", purpose="fix")],
    )  # fmt: skip
    state = ImplementationState(
        repo_dir=repo, ticket=ticket, plan=plan, requirements=None, revision=0, files={},
        assignments=[{"file": plan.files[0], "context": []}],
    )  # fmt: skip
    keys = code_words(state)
    assert {"text", "NaC", "symbol", "NaCl"} <= keys and "label" not in keys
    module = (
        "from chem.formula import tag\n\n\n"
        "def test_guessed():\n    assert tag('sodium chloride')['label'] == 'NaCl'\n\n\n"
        "def test_spelled():\n    assert tag('sodium chloride')['text'] == 'NaCl'\n"
    )
    criterion = "The label for sodium chloride shows `NaCl`."
    _, tests = written_tests(module, criterion, Stated(values=("NaCl",)), repo, keys=keys)
    assert len(tests) == 1 and "['text']" in tests[0]


def test_a_literal_of_a_kind_the_parameter_cannot_take_drops_the_test(tmp_path: Path) -> None:
    treatment = (
        "def chlorine(volumes: list[float], dose: float | None = None) -> float:\n"
        "    return sum(volumes) * 0.2\n"
    )
    repo = write_tree(tmp_path, {"pool/__init__.py": "", "pool/treatment.py": treatment})
    module = (
        "import pytest\nfrom pool.treatment import chlorine as shock\n\n\n"
        "def test_dose_as_volumes():\n    with pytest.raises(ValueError):\n"
        "        shock(-0.2)\n\n\n"
        "def test_list_as_dose():\n    with pytest.raises(ValueError):\n"
        "        shock([100.0], dose=[-0.2])\n\n\n"
        "def test_dose():\n    with pytest.raises(ValueError):\n        shock([100.0], dose=-0.2)\n"
    )
    criterion = "A negative dose raises ValueError."
    stated = Stated(errors=frozenset({"ValueError"}))
    _, tests = written_tests(module, criterion, stated, repo)
    assert len(tests) == 1 and "shock([100.0], dose=-0.2)" in tests[0]
