"""Answers of changed definitions spliced into a Python file by its syntax tree."""

import pytest

from graphs.implementation.worker.definitions import (
    SpliceError,
    answered_by_definitions,
    splice_definitions,
    statement_window,
)
from graphs.implementation.worker.window import Window

LIBRARY = '''"""A small lending library."""

import datetime

LOAN_DAYS = 14


class Library:
    """Books and who has them."""

    fine_per_day = 0.25

    def __init__(self) -> None:
        self.loans: dict[str, datetime.date] = {}

    def lend(self, title: str, today: datetime.date) -> None:
        self.loans[title] = today

    def due(self, title: str) -> datetime.date:
        return self.loans[title] + datetime.timedelta(days=LOAN_DAYS)


def overdue_days(due: datetime.date, today: datetime.date) -> int:
    # Returned on the due day is not late.
    return (today - due).days


if __name__ == "__main__":
    print(Library().fine_per_day)
'''


def unchanged_outside(before: str, after: str, changed: str) -> None:
    """Every line of `before` but those of `changed` is still in `after`, in order."""
    kept = [line for line in before.splitlines() if line not in changed.splitlines()]
    remaining = iter(after.splitlines())
    for line in kept:
        assert any(line == other for other in remaining), f"lost or moved: {line!r}"


def test_a_changed_function_replaces_its_namesake_and_nothing_else() -> None:
    answer = (
        "def overdue_days(due: datetime.date, today: datetime.date) -> int:\n"
        "    return max(0, (today - due).days)\n"
    )
    spliced = splice_definitions(LIBRARY, answer)
    assert "    return max(0, (today - due).days)\n" in spliced.content
    assert "    return (today - due).days\n" not in spliced.content
    assert spliced.replaced == ("overdue_days",) and spliced.added == ()
    before, after = LIBRARY.split("def overdue_days")
    assert spliced.content.startswith(before)
    assert spliced.content.endswith(after.split("\n\n\n", 1)[1])


def test_a_class_answer_replaces_and_adds_members_in_place() -> None:
    answer = (
        "class Library:\n"
        "    def due(self, title):\n"
        "        return self.loans[title]\n"
        "\n"
        "    def give_back(self, title):\n"
        "        del self.loans[title]\n"
    )
    spliced = splice_definitions(LIBRARY, answer)
    assert "    def due(self, title):\n        return self.loans[title]\n" in spliced.content
    assert spliced.content.index("def give_back") > spliced.content.index("def due")
    assert spliced.content.index("def give_back") < spliced.content.index("def overdue_days")
    assert "        del self.loans[title]\n" in spliced.content
    assert spliced.replaced == ("Library.due",) and spliced.added == ("Library.give_back",)
    old_due = LIBRARY.split("    def due")[1].split("\n\n")[0]
    unchanged_outside(LIBRARY, spliced.content, "    def due" + old_due)


def test_a_method_written_alone_lands_in_the_class_that_has_it() -> None:
    answer = "    def lend(self, title, today):\n        self.loans.setdefault(title, today)\n"
    spliced = splice_definitions(LIBRARY, answer)
    assert "    def lend(self, title, today):\n        self.loans.setdefault(" in spliced.content
    assert spliced.replaced == ("Library.lend",)


def test_new_imports_go_with_the_imports_and_new_values_beside_the_constants() -> None:
    answer = (
        "import math\n"
        "import datetime\n"
        "GRACE_DAYS = math.floor(1.5)\n"
        "\n"
        "def fine(days: int) -> float:\n"
        "    return max(0, days - GRACE_DAYS) * Library.fine_per_day\n"
    )
    content = splice_definitions(LIBRARY, answer).content
    assert content.count("import datetime") == 1
    assert content.index("import math") < content.index("GRACE_DAYS =")
    assert content.index("LOAN_DAYS = 14") < content.index("GRACE_DAYS =")
    assert content.index("GRACE_DAYS =") < content.index("class Library")
    # A new function goes after the file's last definition, before its `__main__` block.
    assert content.index("def overdue_days") < content.index("def fine")
    assert content.index("def fine") < content.index('if __name__ == "__main__"')
    compile(content, "library.py", "exec")


def test_a_whole_file_given_back_splices_to_the_same_change() -> None:
    answer = LIBRARY.replace("LOAN_DAYS = 14", "LOAN_DAYS = 21").replace(
        "        self.loans[title] = today\n", "        self.loans[title] = today  # lent\n"
    )
    spliced = splice_definitions(LIBRARY, answer)
    assert spliced.content == answer
    assert set(spliced.replaced) == {"LOAN_DAYS", "Library.lend"}


def test_a_whole_file_answer_keeps_its_comments_between_statements() -> None:
    answer = LIBRARY.replace("\n\nclass Library:", "\n# Loans are by title.\nclass Library:")
    answer += "# the end\n"
    assert splice_definitions(LIBRARY, answer).content == answer


def test_what_a_partial_answer_leaves_out_stays() -> None:
    answer = LIBRARY.split("def overdue_days")[0]
    assert splice_definitions(LIBRARY, answer).content == LIBRARY


def test_placeholders_in_a_class_answer_add_nothing() -> None:
    answer = "class Library:\n    ...\n\n    def due(self, title):\n        return None\n"
    spliced = splice_definitions(LIBRARY, answer)
    assert "...\n" not in spliced.content and spliced.added == ()


def test_new_bases_change_the_class_header_only() -> None:
    answer = "class Library(dict):\n    pass\n"
    spliced = splice_definitions(LIBRARY, answer)
    assert "class Library(dict):\n" in spliced.content
    assert spliced.content.replace("class Library(dict):", "class Library:") == LIBRARY


def test_crlf_files_keep_their_line_endings() -> None:
    crlf = LIBRARY.replace("\n", "\r\n")
    answer = "def overdue_days(due, today):\n    return 0\n"
    content = splice_definitions(crlf, answer).content
    assert "\n" not in content.replace("\r\n", "")


@pytest.mark.parametrize(
    ("answer", "says"),
    [
        ("def broken(:\n    return 1\n", "the answer does not parse (line 1"),
        ('"""Only a docstring."""\n', "holds no code"),
        ('{"name": "modify", "arguments": {"path": "lib.py"}}\n', "holds no code"),
    ],
)
def test_an_answer_that_cannot_be_spliced_says_why(answer: str, says: str) -> None:
    with pytest.raises(SpliceError, match=says.replace("(", r"\(")):
        splice_definitions(LIBRARY, answer)


def test_only_longer_python_files_that_parse_are_answered_by_definitions() -> None:
    assert answered_by_definitions("lib/library.py", LIBRARY)
    assert not answered_by_definitions("lib/library.py", "def f():\n    return 1\n")
    assert not answered_by_definitions("lib/notes.md", LIBRARY)
    assert not answered_by_definitions("lib/library.py", LIBRARY + "def broken(:\n")


def test_a_window_grows_to_whole_statements() -> None:
    lines = LIBRARY.splitlines(keepends=True)
    middle = lines.index("        return self.loans[title] + datetime.timedelta(days=LOAN_DAYS)\n")
    window = statement_window(LIBRARY, Window(middle, middle + 4, len(lines), ""))
    shown = window.text
    assert shown.startswith("    def due(self, title: str)")
    assert shown.rstrip().endswith("return (today - due).days")
    compile(__import__("textwrap").dedent(shown.split("\n\n\ndef")[0]), "due.py", "exec")


def test_a_module_function_written_as_a_method_keeps_its_parameters() -> None:
    answer = "def overdue_days(self, due, today):\n    return max(0, (today - due).days)\n"
    spliced = splice_definitions(LIBRARY, answer)
    assert "def overdue_days(due, today):\n    return max(0" in spliced.content
    method = "    def lend(self, title, today):\n        pass\n"
    assert "def lend(self, title, today)" in splice_definitions(LIBRARY, method).content


def test_a_window_near_the_top_of_a_file_that_opens_with_comments() -> None:
    content = "# Licensed as it is.\n# Keep this line.\n\n" + LIBRARY
    lines = content.splitlines(keepends=True)
    window = statement_window(content, Window(1, 4, len(lines), ""))
    assert window.start == 0 and window.text.startswith("# Licensed")
