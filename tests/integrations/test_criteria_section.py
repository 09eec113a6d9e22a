"""Acceptance criteria found as a section of a ticket's description."""

from integrations.jira.criteria_section import split_criteria

HEADED = """The calculator needs powers.

## Acceptance criteria

1. `power(2, 3)` returns `8`.
2. The existing tests keep passing.

## Not decided yet

Negative exponents?"""


def test_a_heading_section_becomes_the_criteria_and_leaves_the_description() -> None:
    description, criteria = split_criteria(HEADED)
    assert criteria == "1. `power(2, 3)` returns `8`.\n2. The existing tests keep passing."
    assert description == (
        "The calculator needs powers.\n\n## Not decided yet\n\nNegative exponents?"
    )


def test_a_subheading_stays_inside_the_section() -> None:
    text = "Intro\n\n## Acceptance Criteria:\n\n### API\n- a\n### CLI\n- b\n\n## Notes\nn"
    description, criteria = split_criteria(text)
    assert criteria == "### API\n- a\n### CLI\n- b"
    assert description == "Intro\n\n## Notes\nn"


def test_a_bold_label_takes_its_list_and_stops_at_the_next_paragraph() -> None:
    text = "Intro.\n\n**Acceptance criteria:**\n- one\n- two\n  continued\n\nLater remarks."
    description, criteria = split_criteria(text)
    assert criteria == "- one\n- two\n  continued"
    assert description == "Intro.\n\nLater remarks."


def test_a_plain_label_with_a_colon_counts_too() -> None:
    description, criteria = split_criteria("Do it.\nAcceptance criteria:\n* works\n")
    assert criteria == "* works"
    assert description == "Do it."


def test_no_section_leaves_the_description_as_it_is() -> None:
    text = "The acceptance criteria are in the linked page.\n\n## Steps\n1. run"
    assert split_criteria(text) == (text, "")


def test_an_empty_section_is_no_criteria() -> None:
    text = "Intro\n\n## Acceptance criteria\n\n## Steps\n1. run"
    assert split_criteria(text) == (text, "")


def test_a_heading_inside_a_code_block_is_not_a_section() -> None:
    text = "Example:\n```\n## Acceptance criteria\n- not real\n```\nEnd."
    assert split_criteria(text) == (text, "")
