"""A brain for the fake model server that plays the MVP builder's team for a todo-list app.

The first version of `todo.py` has a bug its tests catch; QA names the file, and the second
revision fixes it, so a run needs exactly one QA revision to pass.
"""

import json
from typing import Any

from harness.model_server import Reply, task_of
from llm.fences import fence

TODO_BUGGY = '''"""A todo list."""


class TodoList:
    """Items to do, in the order they were added."""

    def __init__(self) -> None:
        self.items: list[dict[str, object]] = []

    def add(self, title: str) -> int:
        """Add an item; returns its number."""
        if not title.strip():
            raise ValueError("a todo needs a title")
        self.items.append({"title": title, "done": False})
        return len(self.items)

    def complete(self, number: int) -> None:
        """Mark an item done."""
        self.items[number - 1]["done"] = False

    def pending(self) -> list[str]:
        """Titles of the items not done yet."""
        return [str(i["title"]) for i in self.items if not i["done"]]
'''
TODO_FIXED = TODO_BUGGY.replace('["done"] = False', '["done"] = True')
TESTS = """import pytest

from todo import TodoList


def test_add_and_complete() -> None:
    todos = TodoList()
    first = todos.add("write code")
    todos.add("test it")
    todos.complete(first)
    assert todos.pending() == ["test it"]


def test_empty_title_is_refused() -> None:
    with pytest.raises(ValueError):
        TodoList().add("  ")
"""
USAGE = "python -c \"from todo import TodoList; t = TodoList(); t.add('milk'); print(t.pending())\""
FILES = {"todo.py": (TODO_BUGGY, TODO_FIXED), "test_todo.py": (TESTS, TESTS)}


class MvpBrain:
    """Answers the manager, architect, workers and QA."""

    def __call__(self, body: dict[str, Any]) -> Reply:
        task, inputs = task_of(body)
        if task == "manager":
            development = "todo" in inputs.get("request", "").lower()
            return json.dumps(
                {
                    "development": development,
                    "reason": "A todo-list library with tests."
                    if development
                    else "This asks for an essay, not for software.",
                    "plan": "A TodoList class and its pytest tests.",
                    "tasks": ["Add items", "Complete items", "List pending items"],
                    "interface": "library",
                    "run_command": USAGE,
                    "first_use": "Adds an item and prints what is pending.",
                }
            )
        if task == "plan":
            return json.dumps(
                {
                    "summary": "One module and its tests.",
                    "files": [
                        {"path": p, "action": "create", "purpose": f"Write {p}."} for p in FILES
                    ],
                    "test_plan": ["python -m pytest -q"],
                    "risks": ["None."],
                    "contracts": [
                        {"path": "todo.py", "signature": "TodoList.add(title: str) -> int",
                         "behaviour": "Adds an item; empty titles raise ValueError."},
                    ],
                }
            )  # fmt: skip
        if task == "implement_file":
            first, fixed = FILES[inputs["path"]]
            return fence(inputs["path"], first if inputs["revision"] == 1 else fixed, "python")
        if task == "review":
            passed = bool(inputs["tests"].get("passed"))
            fixes = [] if passed else [{"path": "todo.py", "instruction": "complete() must mark"}]
            return json.dumps({"passed": passed, "summary": "Reviewed.", "fixes": fixes})
        return f"no answer for task {task!r}"


STUB_FILES = {
    "todo/__main__.py": "import pytest\n\n\ndef main():\n    pass\n",
    "todo/ui.py": (
        "import tkinter as tk\n\n\nclass App:\n    def add_task(self):\n"
        "        self.tasks.append(self.task_entry.get())\n"
    ),
    "todo/database.py": (
        "import sqlite3\n\n\nclass Database:\n    def __init__(self, path):\n"
        "        self.db = sqlite3.connect(path)\n\n    def add(self, title):\n"
        "        self.db.execute('create table if not exists t (title text)')\n"
        "        self.db.execute('insert into t values (?)', (title,))\n"
    ),
    "tests/test_app.py": (
        "def test_add():\n    # adds a task\n    pass\n\n\ndef test_list():\n    pass\n"
    ),
    "tests/test_ui.py": "from todo import ui\n",
}


class StubMvpBrain:
    """A team whose project does nothing and whose QA passes it all the same."""

    def __call__(self, body: dict[str, Any]) -> Reply:
        task, inputs = task_of(body)
        if task == "manager":
            return json.dumps(
                {
                    "development": True,
                    "reason": "A todo-list app.",
                    "plan": "A command line to add and list todos.",
                    "tasks": ["Add a todo", "List todos"],
                    "interface": "command line",
                    "run_command": 'python -m todo add "milk"',
                    "first_use": "Adds milk to the list and says so.",
                }
            )
        if task == "plan":
            return json.dumps(
                {
                    "summary": "A package, a window and a database.",
                    "files": [
                        {"path": p, "action": "create", "purpose": f"Write {p}."}
                        for p in STUB_FILES
                    ],
                    "test_plan": ["python -m pytest -q"],
                    "risks": ["None."],
                    "contracts": [
                        {"path": "todo/database.py", "signature": "Database.add(title: str)",
                         "behaviour": "Stores a todo."},
                    ],
                }
            )  # fmt: skip
        if task == "implement_file":
            return fence(inputs["path"], STUB_FILES[inputs["path"]], "python")
        if task == "review":
            return json.dumps({"passed": True, "summary": "Looks complete.", "fixes": []})
        return f"no answer for task {task!r}"
