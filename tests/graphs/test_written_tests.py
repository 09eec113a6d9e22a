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
from graphs.prompting import read_task
from graphs.schemas import Plan, PlannedFile, TicketContext
from harness.local_tester import LocalTester
from tests.graphs.conftest import write_tree
from tests.graphs.test_example_tests import CORE, FIXED, PLAN, REPO, TICKET
from tests.graphs.test_implementation_loop import Reply, file_answer, team, verdict
from tests.graphs.test_worker_retries import BoundedTeam

TAX_CODE = "def total(amounts):\n    return sum(amounts)\n"
WEIGHTS = (
    "import math\n\nSTEP_KG = 0.5\n\n\nclass Box:\n    def volume(self):\n        return 1\n\n\n"
    "def chargeable_kg(length, width, height, grams):\n    return math.ceil(grams / 500) / 2\n"
)
BIG_BOX = "The 60 x 40 x 40 cm box of 2 kg gets a label weight of 19.5 kg."
PARSE = "def parse_line(line):\n    return line\n\n\ndef describe(reading):\n    return reading\n"
SHOP = {
    "shop/__init__.py": "",
    "shop/cart.py": "class Cart:\n    def total(self, discount=0):\n        return 0.0\n",
}


def test_criteria_stating_an_error_or_a_value_no_example_tests() -> None:
    text = (
        "- A negative rate raises ValueError.\n"
        "- Unknown units still raise ValueError.\n"  # the code raises it already
        "- `mean([])` raises ValueError.\n"  # a stated call: an example, no model needed
        "- A bad code raises InvalidCode.\n"  # not built in: a test could not name it
        "- A page below 1 raises a ValueError or a TypeError.\n"
        "- `total(discount=10)` on a cart worth 200.0 returns 180.0.\n"
        '- "yes" and "on" are True; "no" is False.\n'
        "- `f(1)` returns `[1, 2]`; page 3 returns `[5]`.\n"  # the first is an example
        "- `to_roman(4)` is `IV`.\n"  # tested as stated: nothing for the model
        "- It is fast."
    )
    assert stated_checks(text) == {
        "A negative rate raises ValueError.": Stated(errors=frozenset({"ValueError"})),
        "A page below 1 raises a ValueError or a TypeError.": Stated(
            errors=frozenset({"ValueError"})  # the error right after "raises"
        ),
        "`total(discount=10)` on a cart worth 200.0 returns 180.0.": Stated(values=(180.0,)),
        '"yes" and "on" are True; "no" is False.': Stated(values=(True, False)),
        "`f(1)` returns `[1, 2]`; page 3 returns `[5]`.": Stated(values=([5],)),
    }


def test_values_a_reporter_states_as_shown_or_got_are_stated_values() -> None:
    text = (
        "- The 60 x 40 x 40 cm box of 2 kg gets a label weight of 19.5 kg.\n"
        "- The circle for Mary-Jane Watson shows `MJW`, and for Jean-Luc Picard `JLP`.\n"
        "- A line of 0.125 should be 12 cents.\n"
        "- The total comes out as `13`.\n"
        "- The user gets an error message.\n"  # no value
        "- The badge shows the first letters.\n"
        "- `pow 2 10` on the command line prints `1024`.\n"  # output, not a value returned
        "- `power(2, 3)` returns `8` and `power(2.5, 2)` returns `6.25`.\n"  # examples
    )
    assert stated_checks(text) == {
        BIG_BOX: Stated(values=(19.5,)),
        "The circle for Mary-Jane Watson shows `MJW`, and for Jean-Luc Picard `JLP`.": Stated(
            values=("MJW", "JLP")
        ),
        "A line of 0.125 should be 12 cents.": Stated(values=(12,)),
        "The total comes out as `13`.": Stated(values=(13,)),
    }


def test_none_and_a_line_of_display_text_are_stated_values_and_code_is_not() -> None:
    text = (
        "- A line with two values keeps its `humidity` as None.\n"
        "- Its Reading's `humidity` is None.\n"
        "- The dashboard line reads `kitchen: 21.5 °C, 40 % humidity`.\n"
        "- The check is `size % 2`.\n"  # code, not a value
    )
    assert stated_checks(text) == {
        "Its Reading's `humidity` is None.": Stated(values=(None,)),
        "The dashboard line reads `kitchen: 21.5 °C, 40 % humidity`.": Stated(
            values=("kitchen: 21.5 °C, 40 % humidity",)
        ),
    }


def test_a_test_asserting_a_stated_none_or_display_text_is_kept(tmp_path: Path) -> None:
    repo = write_tree(tmp_path / "repo", {"climate/__init__.py": "", "climate/parse.py": PARSE})
    module = (
        "from climate.parse import parse_line, describe\n\n\n"
        "def test_none():\n    assert parse_line('hall,19.0').humidity is None\n\n\n"
        "def test_shown():\n    assert describe(parse_line('kitchen,21.5,40')) == "
        "'kitchen: 21.5 °C, 40 % humidity'\n"
    )
    stated = Stated(values=(None, "kitchen: 21.5 °C, 40 % humidity"))
    imports, tests = written_tests(module, "the criterion", stated, repo)
    assert imports == ["from climate.parse import parse_line, describe"]
    assert [t.splitlines()[0] for t in tests] == [
        "def test_criterion_1():",
        "def test_criterion_2():",
    ]


def test_only_tests_expecting_a_stated_error_from_known_names_are_kept(tmp_path: Path) -> None:
    repo = write_tree(tmp_path, SHOP)
    module = (
        "import pytest\nfrom shop.cart import Cart\n\n\n"
        "def test_below_zero():\n    cart = Cart()\n    with pytest.raises(ValueError):\n"
        "        cart.total(discount=-1)\n\n\n"
        "def test_value():\n    assert Cart().total(discount=10) == 16.8\n\n\n"
        "def test_other_error():\n    with pytest.raises(KeyError):\n        Cart().total(-1)\n\n\n"
        "def test_value_inside():\n    with pytest.raises(ValueError):\n"
        "        assert Cart().total(101) == 0\n"
    )
    criterion = "A discount below 0 raises ValueError."
    stated = Stated(errors=frozenset({"ValueError"}))
    imports, tests = written_tests(module, criterion, stated, repo, first=3)
    assert imports == ["import pytest", "from shop.cart import Cart"]
    assert tests == [
        'def test_criterion_3():\n    """A discount below 0 raises ValueError."""\n'
        "    cart = Cart()\n    with pytest.raises(ValueError):\n        cart.total(discount=-1)\n"
    ]
    unknown = module.replace("from shop.cart import Cart", "from shop.carts import Cart")
    assert written_tests(unknown, criterion, stated, repo) == ([], [])
    assert written_tests("def test_(:\n", criterion, stated, repo) == ([], [])


def test_only_tests_asserting_a_stated_value_of_a_call_are_kept(tmp_path: Path) -> None:
    repo = write_tree(tmp_path, SHOP)
    module = (
        "import pytest\nfrom shop.cart import Cart\n\n\n"
        "def test_stated():\n    cart = Cart()\n    cart.add('a', 100.0, 2)\n"
        "    assert cart.total(discount=10) == 180.0\n\n\n"
        "def test_approx():\n    cart = Cart()\n    cart.add('a', 200.0)\n"
        "    assert cart.total(discount=10) == pytest.approx(180)\n\n\n"
        "def test_computed():\n    assert Cart().total(discount=10) == 16.2\n\n\n"
        "def test_no_call():\n    total = 180.0\n    assert total == 180.0\n\n\n"
        "def test_bool_is_not_one():\n    assert Cart().total() == True\n\n\n"
        "def test_loop():\n    for d in (10,):\n        assert Cart().total(discount=d) == 180.0\n"
    )
    criterion = "`total(discount=10)` on a cart worth 200.0 returns 180.0."
    imports, tests = written_tests(module, criterion, Stated(values=(180.0, 1)), repo)
    assert [t.split("\n")[0] for t in tests] == [
        "def test_criterion_1():",
        "def test_criterion_2():",
    ]
    assert "cart.add('a', 100.0, 2)" in tests[0] and "pytest.approx(180)" in tests[1]


def test_keyword_arguments_must_be_words_the_ticket_or_the_code_spells(tmp_path: Path) -> None:
    repo = write_tree(tmp_path, {"billing/__init__.py": "", "billing/invoice.py": TAX_CODE})
    module = (
        "import pytest\nfrom billing.invoice import total\n\n\n"
        "def test_copied():\n    with pytest.raises(ValueError):\n"
        "        total([100.0], discount=-10)\n\n\n"
        "def test_rate():\n    with pytest.raises(ValueError):\n        total([100.0], rate=-0.1)\n"
    )
    criterion = "A negative rate raises ValueError."
    words = {"total", "rate", "negative", "amounts"}
    stated = Stated(errors=frozenset({"ValueError"}))
    _, tests = written_tests(module, criterion, stated, repo, words=words)
    assert len(tests) == 1 and "rate=-0.1" in tests[0]


def test_a_test_expecting_the_error_at_an_allowed_bound_is_dropped(tmp_path: Path) -> None:
    # "below 0 or above 100": 0 and 100 are allowed, so they must not raise
    repo = write_tree(tmp_path, SHOP)
    cases = {"-10": True, "0": False, "100": False, "-100": True, "100.5": True}
    module = "import pytest\nfrom shop.cart import Cart\n" + "".join(
        f"\n\ndef test_{n}():\n    with pytest.raises(ValueError):\n"
        f"        cart = Cart()\n        cart.add('pen', 100, 4)\n"
        f"        cart.total(discount={d})\n"
        for n, d in enumerate(cases)
    )
    criterion = "A discount below 0 or above 100 raises ValueError."
    _, tests = written_tests(module, criterion, Stated(errors=frozenset({"ValueError"})), repo)
    kept = [d for d, right in cases.items() if right]
    assert [t.rsplit("discount=", 1)[1].rstrip(")\n") for t in tests] == kept


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
    repo = write_tree(tmp_path, SHOP)
    module = (
        "from shop.cart import Cart\n\n\n"
        "def test_invented_cart():\n    cart = Cart()\n    cart.add('pen', 1.5, 4)\n"
        "    cart.add('book', 12.0)\n    assert round(cart.total(discount=10), 2) == 180.0\n\n\n"
        "def test_empty_cart():\n    assert Cart().total(discount=10) == 180.0\n\n\n"
        "def test_two_lines():\n    cart = Cart()\n    cart.add('a', 150.0)\n"
        "    cart.add('b', 50.0)\n    assert cart.total(discount=10) == 180.0\n"
    )
    criterion = "`total(discount=10)` on a cart worth 200.0 returns 180.0."
    tests = written_tests(module, criterion, Stated(values=(180.0,)), repo)[1]
    assert len(tests) == 1 and "cart.add('a', 150.0)" in tests[0]


def test_a_repository_class_a_test_uses_unimported_is_imported(tmp_path: Path) -> None:
    repo = write_tree(
        tmp_path / "repo",
        {
            "ship/__init__.py": "",
            "ship/parcel.py": "class Parcel:\n    pass\n",
            "ship/weights.py": "def chargeable_kg(parcel):\n    return 0.0\n",
        },
    )
    module = (
        "from ship.weights import chargeable_kg\n\n\n"
        "def test_big():\n    box = Parcel(60, 40, 40, grams=2000)\n"
        "    assert chargeable_kg(box) == 19.5\n\n\n"
        "def test_unknown():\n    assert chargeable_kg(Crate(60, 40, 40, 2)) == 19.5\n"
    )
    imports, tests = written_tests(module, BIG_BOX, Stated(values=(19.5,)), repo)
    assert imports == [
        "from ship.weights import chargeable_kg",
        "from ship.parcel import Parcel",
    ]
    assert len(tests) == 2  # `Crate` is nowhere: its test stays unimported and fails as broken


def test_a_test_setting_up_another_criterions_inputs_is_dropped(tmp_path: Path) -> None:
    repo = write_tree(tmp_path / "repo", {"ship/__init__.py": "", "ship/weights.py": WEIGHTS})
    module = (
        "from ship.weights import chargeable_kg\n\n\n"
        "def test_big():\n    assert chargeable_kg(60, 40, 40, grams=2000) == 19.5\n\n\n"
        "def test_small_on_the_big_box():\n"
        "    assert chargeable_kg(60, 40, 40, grams=3200) == 3.5\n"
    )
    small = "A 20 x 15 x 10 cm box of 3.2 kg still gets 3.5 kg."
    kept = written_tests(module, BIG_BOX, Stated(values=(19.5,)), repo, others=[small])[1]
    assert [t.splitlines()[2] for t in kept] == [
        "    assert chargeable_kg(60, 40, 40, grams=2000) == 19.5"
    ]
    assert written_tests(module, small, Stated(values=(3.5,)), repo, others=[BIG_BOX]) == ([], [])


def test_checks_of_values_not_stated_are_dropped_beside_a_stated_one(tmp_path: Path) -> None:
    repo = write_tree(tmp_path / "repo", {"climate/__init__.py": "", "climate/parse.py": PARSE})
    module = (
        "from climate.parse import parse_line\n\n\n"
        "def test_humidity():\n    reading = parse_line('kitchen,21.5,40')\n"
        "    assert reading.sensor == 'kitchen'\n    assert reading.humidity == 40.0\n\n\n"
        "def test_only_unstated():\n    assert parse_line('hall,19').sensor == 'hall'\n\n\n"
        "def test_no_call():\n    humidity = 40.0\n    assert humidity == 40.0\n"
    )
    criterion = "`kitchen,21.5,40` parses into a Reading whose `humidity` is 40.0."
    imports, tests = written_tests(module, criterion, Stated(values=(40.0,)), repo)
    assert tests == [
        f'def test_criterion_1():\n    """{criterion}"""\n'
        "    reading = parse_line('kitchen,21.5,40')\n    assert reading.humidity == 40.0\n"
    ]


def test_a_module_constant_or_import_may_be_imported_a_method_may_not(tmp_path: Path) -> None:
    repo = write_tree(tmp_path / "repo", {"ship/__init__.py": "", "ship/weights.py": WEIGHTS})
    head = "from ship.weights import chargeable_kg, {name}\n\n\n"
    test = "def test_big():\n    assert chargeable_kg(60, 40, 40, grams=2000) == 19.5\n"
    stated = Stated(values=(19.5,))
    for name, kept in [("STEP_KG", True), ("math", True), ("volume", False), ("nothing", False)]:
        found = written_tests(head.format(name=name) + test, "19.5 kg", stated, repo)[1]
        assert bool(found) is kept, name


def test_string_keys_must_be_spelled_as_code_by_the_ticket_or_the_code(tmp_path: Path) -> None:
    avatar = 'def badge(name):\n    return {"text": name[:1], "colour": "#fff"}\n'
    repo = write_tree(tmp_path, {"contacts/__init__.py": "", "contacts/avatar.py": avatar})
    (repo / "tests").mkdir()
    ticket = TicketContext(
        key="CONT-1",
        summary="Badge letters",
        description='The circle shows "MW" for Mary-Jane Watson; `initials` drops the hyphen.',
        acceptance_criteria="- The circle for Mary-Jane Watson shows `MJW`.",
    )
    plan = Plan(
        version=1, summary="Fix the letters", test_plan=[], risks=[], markdown="",
        files=[PlannedFile(path="contacts/avatar.py", action="modify", purpose="fix")],
    )  # fmt: skip
    state = ImplementationState(
        repo_dir=repo, ticket=ticket, plan=plan, requirements=None, revision=0, files={},
        assignments=[{"file": plan.files[0], "context": []}],
    )  # fmt: skip
    keys = code_words(state)
    assert {"text", "MW", "initials", "MJW"} <= keys and "circle" not in keys
    module = (
        "from contacts.avatar import badge\n\n\n"
        "def test_guessed():\n    assert badge('Mary-Jane Watson')['circle'] == 'MJW'\n\n\n"
        "def test_spelled():\n    assert badge('Mary-Jane Watson')['text'] == 'MJW'\n"
    )
    criterion = "The circle for Mary-Jane Watson shows `MJW`."
    _, tests = written_tests(module, criterion, Stated(values=("MJW",)), repo, keys=keys)
    assert len(tests) == 1 and "['text']" in tests[0]


def test_a_literal_of_a_kind_the_parameter_cannot_take_drops_the_test(tmp_path: Path) -> None:
    invoice = (
        "def tax(amounts: list[float], rate: float | None = None) -> float:\n"
        "    return sum(amounts) * 0.2\n"
    )
    repo = write_tree(tmp_path, {"billing/__init__.py": "", "billing/invoice.py": invoice})
    module = (
        "import pytest\nfrom billing.invoice import tax as vat\n\n\n"
        "def test_rate_as_amounts():\n    with pytest.raises(ValueError):\n        vat(-0.2)\n\n\n"
        "def test_list_as_rate():\n    with pytest.raises(ValueError):\n"
        "        vat([100.0], rate=[-0.2])\n\n\n"
        "def test_rate():\n    with pytest.raises(ValueError):\n        vat([100.0], rate=-0.2)\n"
    )
    criterion = "A negative rate raises ValueError."
    stated = Stated(errors=frozenset({"ValueError"}))
    _, tests = written_tests(module, criterion, stated, repo)
    assert len(tests) == 1 and "vat([100.0], rate=-0.2)" in tests[0]
