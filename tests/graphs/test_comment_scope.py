"""A review round's rewrite of definitions its inline comments are not about is put back."""

from pathlib import Path

from graphs.review.comment_scope import InlineComment, held_to_comments, hold_changes
from graphs.schemas import FileChange

OPS = "calc/operations.py"
ORIGINAL = (
    '"""Operations."""\n\n\ndef add(a, b):\n    return a + b\n\n\n'
    "def divide(a, b):\n    return a / b\n\n\n"
    "def power(base, exponent):\n    return base**exponent\n"
)
# The docstring asked for, a new helper, and divide() rewritten on the way.
CHANGED = (
    '"""Operations."""\n\n\ndef add(a, b):\n    return a + b\n\n\n'
    "def divide(a, b):\n    if b == 0:\n        return None\n    return a / b\n\n\n"
    'def power(base, exponent):\n    """Negative exponents give floats."""\n'
    "    return base**exponent\n\n\n"
    "def square(x):\n    return power(x, 2)\n"
)
DOCSTRING = "Please give power() a docstring that says negative exponents give floats."


def comment(body: str, line: int | None = 1) -> InlineComment:
    return InlineComment(path=OPS, line=line, body=body)


def test_a_definition_the_comment_is_not_about_is_put_back() -> None:
    held, put_back = held_to_comments(ORIGINAL, CHANGED, [comment(DOCSTRING)])

    assert put_back == ["divide"]
    assert "def divide(a, b):\n    return a / b\n" in held
    assert '"""Negative exponents give floats."""' in held and "def square(x)" in held


def test_the_definition_a_comment_points_at_is_what_it_is_about() -> None:
    held, put_back = held_to_comments(ORIGINAL, CHANGED, [comment("Handle zero here.", line=9)])
    assert put_back == ["power"] and "if b == 0" in held and '"""Negative' not in held

    both = [comment("Handle zero here.", line=9), comment(DOCSTRING)]
    assert held_to_comments(ORIGINAL, CHANGED, both) == (CHANGED, [])


def test_a_comment_about_no_definition_leaves_the_change_as_it_is() -> None:
    assert held_to_comments(ORIGINAL, CHANGED, [comment("Tidy this up.")]) == (CHANGED, [])
    assert held_to_comments(ORIGINAL, "def broken(:\n", [comment(DOCSTRING)]) == (
        "def broken(:\n",
        [],
    )


def test_a_definition_dropped_on_the_way_comes_back() -> None:
    without_add = CHANGED.replace("def add(a, b):\n    return a + b\n\n\n", "")
    held, put_back = held_to_comments(ORIGINAL, without_add, [comment(DOCSTRING, line=None)])
    assert put_back == ["add", "divide"]
    assert held.endswith("\n\n\ndef add(a, b):\n    return a + b\n")


def test_changes_keep_only_what_their_comments_are_about(tmp_path: Path) -> None:
    (tmp_path / "calc").mkdir()
    (tmp_path / OPS).write_text(ORIGINAL)
    (tmp_path / "README.md").write_text("# calc\n")
    only_divide = CHANGED.replace('    """Negative exponents give floats."""\n', "")
    only_divide = only_divide.replace("\n\n\ndef square(x):\n    return power(x, 2)\n", "\n")
    changes = [
        FileChange(path=OPS, content=only_divide),
        FileChange(path="README.md", content="# calc, with power\n"),
    ]
    held, put_back = hold_changes(tmp_path, changes, [comment(DOCSTRING)])

    assert [c.path for c in held] == ["README.md"]  # the rest of ops.py was divide's rewrite
    assert put_back == ["`divide` in `calc/operations.py`"]
