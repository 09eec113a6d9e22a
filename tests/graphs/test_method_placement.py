"""A method an answer wrote outside its class is put into the class."""

import ast

from graphs.implementation.worker.method_placement import place_methods
from graphs.schemas import Contract

BEFORE = '''"""Stacks."""


class Stack:
    """Last in, first out."""

    def __init__(self):
        self.items = []

    def push(self, item):
        self.items.append(item)


def helper(x):
    return x
'''


def test_a_new_module_level_method_goes_into_the_only_class() -> None:
    answer = (
        BEFORE
        + '''

def peek(self):
    """The top item, or None."""
    return self.items[-1] if self.items else None
'''
    )
    content, moved = place_methods("stack.py", BEFORE, answer, [])
    assert moved == ["peek"]
    tree = ast.parse(content)
    stack = next(n for n in tree.body if isinstance(n, ast.ClassDef))
    assert [n.name for n in stack.body if isinstance(n, ast.FunctionDef)] == [
        "__init__", "push", "peek",
    ]  # fmt: skip
    assert [n.name for n in tree.body if isinstance(n, ast.FunctionDef)] == ["helper"]
    namespace: dict = {}
    exec(compile(content, "stack.py", "exec"), namespace)
    stack_obj = namespace["Stack"]()
    stack_obj.push(3)
    assert stack_obj.peek() == 3


def test_the_contract_names_the_class_and_an_old_method_is_replaced() -> None:
    before = "class A:\n    def size(self):\n        return 0\n\n\nclass B:\n    pass\n"
    answer = before.replace("class B:\n    pass\n", "class B:\n    pass\n\n\n"
                            "@property\ndef size(self):\n    return 2\n")  # fmt: skip
    contracts = [Contract(path="shapes.py", signature="B.size(self) -> int", behaviour="b")]
    content, moved = place_methods("shapes.py", before, answer, contracts)
    assert moved == ["size"]
    namespace: dict = {}
    exec(compile(content, "shapes.py", "exec"), namespace)
    assert namespace["B"]().size == 2 and namespace["A"]().size() == 0
    replaced, moved = place_methods("shapes.py", before, before.replace(
        "class B:\n    pass\n", "class B:\n    pass\n\n\ndef size(self):\n    return 5\n"),
        [Contract(path="shapes.py", signature="A.size()", behaviour="b")])  # fmt: skip
    exec(compile(replaced, "shapes.py", "exec"), namespace)
    assert moved == ["size"] and namespace["A"]().size() == 5
    assert replaced.count("def size") == 1


def test_nothing_moves_without_a_class_to_own_it_or_when_it_was_there_before() -> None:
    two = "class A:\n    pass\n\n\nclass B:\n    pass\n"
    stray = two + "\n\ndef size(self):\n    return 1\n"
    assert place_methods("m.py", two, stray, []) == (stray, [])  # which class: unknown
    kept = BEFORE + "\n\ndef legacy(self):\n    return self\n"
    assert place_methods("m.py", kept, kept, []) == (kept, [])  # the repository's own
    assert place_methods("m.py", BEFORE, "def broken(:\n", []) == ("def broken(:\n", [])
    assert place_methods("notes.md", BEFORE, "x", []) == ("x", [])
