"""Criteria that name an error but no call become `pytest.raises` tests around the model's call."""

from pathlib import Path
from typing import Any

from langchain_core.messages import BaseMessage

from graphs.implementation import implement_plan
from graphs.implementation.criteria import criteria_path
from graphs.implementation.error_tests import error_criteria, error_tests, with_error_tests
from graphs.implementation.examples import example_tests
from tests.graphs.conftest import write_tree
from tests.graphs.test_example_tests import CORE, FIXED, PLAN, REPO, TICKET
from tests.graphs.test_implementation_loop import Reply, file_answer, team, verdict
from tests.support.local_tester import LocalTester

SHOP = {
    "shop/__init__.py": "",
    "shop/cart.py": "class Cart:\n    def total(self, discount=0):\n        return 0.0\n",
}


def test_criteria_naming_a_new_error_without_a_call() -> None:
    text = (
        "- A negative rate raises ValueError.\n"
        "- Unknown units still raise ValueError.\n"  # the code raises it already
        "- `mean([])` raises ValueError.\n"  # a stated call: an example, no model needed
        "- A bad code raises InvalidCode.\n"  # not built in: a test could not name it
        "- A page below 1 raises a ValueError or a TypeError.\n"
        "- It is fast."
    )
    assert error_criteria(text) == {
        "A negative rate raises ValueError.": {"ValueError"},
        "A page below 1 raises a ValueError or a TypeError.": {"ValueError"},
    }


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
    imports, tests = error_tests(module, criterion, {"ValueError"}, repo, first=3)
    assert imports == ["import pytest", "from shop.cart import Cart"]
    assert tests == [
        "def test_error_3():\n    \"\"\"A discount below 0 raises ValueError.\"\"\"\n"
        "    cart = Cart()\n    with pytest.raises(ValueError):\n        cart.total(discount=-1)\n"
    ]
    unknown = module.replace("from shop.cart import Cart", "from shop.carts import Cart")
    assert error_tests(unknown, criterion, {"ValueError"}, repo) == ([], [])
    assert error_tests("def test_(:\n", criterion, {"ValueError"}, repo) == ([], [])


def test_the_module_holds_the_examples_then_the_error_tests(tmp_path: Path) -> None:
    repo = write_tree(tmp_path, REPO)
    spelled = example_tests("X-1", "- `chunked([], 3)` returns `[]`.", repo)
    test = "def test_error_1():\n    with pytest.raises(ValueError):\n        chunked([1], 0)\n"
    module = with_error_tests(spelled, "X-1", ["from chunks.core import chunked"], [test])
    assert module.count("from chunks.core import chunked") == 1 and "import pytest\n" in module
    assert module.index("def test_example_1") < module.index("def test_error_1")
    compile(module, "test_x.py", "exec")
    alone = with_error_tests(None, "X-1", ["import pytest"], [test])
    assert alone.startswith('"""Acceptance tests of X-1: stated examples and errors."""\n')
    compile(alone, "test_x.py", "exec")


async def test_a_broken_error_test_leaves_the_examples_alone(tmp_path: Path) -> None:
    repo = write_tree(tmp_path / "repo", REPO)
    tester = LocalTester(repo, tmp_path / "runs", "python -m pytest -q")
    broken = (  # `chunk`, a name nothing defines: a NameError on every run
        "import pytest\n\n\ndef test_zero():\n    with pytest.raises(ValueError):\n"
        "        chunk([1], 0)\n"
    )

    def handle(task: str, inputs: dict[str, Any], messages: list[BaseMessage]) -> Reply:
        if task == "criteria_tests":
            return file_answer(inputs["path"], broken)
        return verdict(True) if task == "review" else file_answer(CORE, FIXED)

    result = await implement_plan(
        team(handle), repo, TICKET, PLAN, None, tester=tester, max_revisions=2, example_tests=True
    )
    path = criteria_path(TICKET.key)
    changes = {c.path: c.content for c in result.changes}
    assert "test_example_1" in changes[path] and "chunk([1], 0)" not in changes[path]
    assert "1 error tests dropped, " in result.notes and "is broken: " in result.notes
    assert "examples kept, 1 fail on the original code as they should" in result.notes
