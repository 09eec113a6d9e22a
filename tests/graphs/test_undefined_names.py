"""Names a worker's answer reads that nothing defines: found before the tests run, and the
answer asked for again with the names and their lines."""

from pathlib import Path
from typing import Any

from langchain_core.messages import BaseMessage

from graphs.implementation import implement_plan
from graphs.implementation.worker.retries import UNDEFINED
from graphs.implementation.worker.undefined_names import new_undefined_names, undefined_names
from graphs.schemas import TicketContext
from harness.local_tester import LocalTester
from tests.graphs.test_convergence import worker_prompts
from tests.graphs.test_implementation_loop import (
    ADD,
    GOOD_OPS,
    OPS,
    Reply,
    file_answer,
    plan_for,
    team,
    verdict,
)

KENNEL = """\
import math


def helper():
    return 1


class Kennel:
    def fee(self, nights: float = 0) -> float:
        if nights:
            price = dog.price
        s = 1

        def inner():
            return s + math.pi + helper() + undefined_thing

        return [q for q in range(3) if q > missing][0] + inner()
"""


def named(source: str) -> list[tuple[str, str, int]]:
    return [(u.name, u.scope, u.line) for u in undefined_names(source)]


def test_names_read_where_nothing_binds_them_are_found_with_their_function_and_line() -> None:
    found = [("dog", "fee", 11), ("undefined_thing", "inner", 15), ("missing", "fee", 17)]
    assert named(KENNEL) == found


def test_names_bound_anywhere_in_the_module_or_by_python_are_not_undefined() -> None:
    bound = (
        "try:\n    import yaml\nexcept ImportError:\n    yaml = None\n\n"
        "def later():\n    return EARLY + yaml + print(__name__, __file__) + Shape\n\n"
        "def setter():\n    global EARLY\n    EARLY = 1\n\n"
        "class Shape:\n    pass\n"
    )
    assert named(bound) == []


def test_a_local_variables_annotation_is_never_evaluated_so_it_is_not_a_read() -> None:
    assert named("def f():\n    v: Missing = 1\n    return v\n") == []
    assert named("def f(x: int):\n    return Missing()\n") == [("Missing", "f", 2)]


def test_a_class_attribute_read_bare_in_a_method_is_undefined() -> None:
    assert named("class A:\n    size = 1\n\n    def m(self):\n        return size\n") == [
        ("size", "m", 5)
    ]


def test_sources_a_symbol_table_cannot_judge_give_no_names() -> None:
    assert named("def f(:\n") == []
    assert named("from os.path import *\n\ndef f():\n    return join('a', 'b')\n") == []
    assert named("globals()['late'] = 1\n\ndef f():\n    return late\n") == []


def test_only_names_the_answer_added_count() -> None:
    before = "def f():\n    return plugin_hook()\n"
    after = "def f():\n    return plugin_hook() + extra\n"
    assert [u.name for u in new_undefined_names(before, after)] == ["extra"]


async def test_an_answer_reading_an_undefined_name_is_asked_again_with_the_name_and_line(
    tiny_repo: Path, ticket: TicketContext, tmp_path: Path
) -> None:
    tester = LocalTester(tiny_repo, tmp_path / "runs", "python -m pytest -q")
    typo = ADD + "\n\ndef subtract(a: int, b: int) -> int:\n    return a - bb\n"
    versions = iter([typo, GOOD_OPS])

    def handle(task: str, inputs: dict[str, Any], messages: list[BaseMessage]) -> Reply:
        if task == "review":
            return verdict(True)
        return file_answer(OPS, next(versions))

    model = team(handle)
    result = await implement_plan(model, tiny_repo, ticket, plan_for(OPS), None, tester=tester)
    prompts = worker_prompts(model, OPS)
    assert len(prompts) == 2, "the answer reading `bb` was not asked for again"
    told = UNDEFINED.format(names="`bb` (line 6, in `subtract`)")
    assert told not in prompts[0] and told in prompts[1]
    assert {c.path: c.content for c in result.changes} == {OPS: GOOD_OPS}
    assert result.tests_passed and result.revisions == 1


def test_a_method_named_top_keeps_its_own_names() -> None:
    source = "class Stack(list):\n    def top(self):\n        value = self[-1]\n"
    source += "        return value\n"
    assert named(source) == []
