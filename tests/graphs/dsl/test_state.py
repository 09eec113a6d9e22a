"""State paths, branch merging and durations of graph definitions."""

from datetime import timedelta

import pytest

from graphs.dsl.durations import format_duration, parse_duration
from graphs.dsl.state import MISSING, get_path, merge_branches, set_path


def test_paths_read_objects_and_lists() -> None:
    state = {"plan": {"files": [{"path": "a.py"}, {"path": "b.py"}]}}
    assert get_path(state, "plan.files.1.path") == "b.py"
    assert get_path(state, "plan.files.-1.path") == "b.py"
    assert get_path(state, "plan.files.2.path") is MISSING
    assert get_path(state, "plan.missing") is MISSING
    set_path(state, "review.verdict.text", "ok")
    assert state["review"] == {"verdict": {"text": "ok"}}


def test_branches_merge_new_and_changed_values_only() -> None:
    before = {"a": 1, "b": 2}
    left = {"a": 1, "b": 2, "left": "L"}
    right = {"a": 1, "b": 3, "right": "R"}
    assert merge_branches(before, [left, right]) == {"a": 1, "b": 3, "left": "L", "right": "R"}


@pytest.mark.parametrize(
    ("text", "seconds"),
    [("90", 90), (90, 90), ("30s", 30), ("5m", 300), ("2h", 7200), ("7d", 604800)],
)
def test_durations(text: object, seconds: float) -> None:
    parsed = parse_duration(text)
    assert parsed == timedelta(seconds=seconds)
    assert parse_duration(format_duration(parsed)) == parsed


@pytest.mark.parametrize("bad", ["soon", "5 minutes", True])
def test_bad_durations_say_how_to_write_one(bad: object) -> None:
    with pytest.raises(ValueError, match="30s"):
        parse_duration(bad)
