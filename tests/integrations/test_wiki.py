"""Jira wiki markup <-> ADF and markdown: round trips, Jira's syntax, and escaping."""

import pytest

from integrations.jira.adf import adf_to_markdown, markdown_to_adf
from integrations.jira.wiki import adf_to_wiki, markdown_to_wiki, wiki_to_adf, wiki_to_markdown

ROUND_TRIPS = [
    "Just one paragraph.",
    "# Title\n\n## Section\n\nText with **bold**, *italics*, ~~gone~~ and `code`.",
    "A [link](https://example.com/a?b=1) and [**bold link**](https://x.test).",
    "First line\nsecond line of the same paragraph.",
    "- one\n- two with `x`\n  - nested\n  - nested too\n- three",
    "1. first\n2. second\n3. third",
    "- a\n  1. x\n  2. y\n- b",
    "```python\ndef power(base, exponent):\n\n    return base ** exponent\n```",
    "```\nno language\n```",
    "> quoted\n> more",
    "above\n\n---\n\nbelow",
    "**bold `code` inside** and snake_case_name and 2 * 3 * 4",
    "`power(2, -1)`? {braces} [brackets] a|b C++ -1, well - done, x^2 ~y +z+",
    "See https://x.test/a_b_c and DEMO-1",
    "*ticketsmith ref: ticket-DEMO-1/0199a2b3-c4d5-7e6f-8a9b-0c1d2e3f4a5b/questions*",
]


@pytest.mark.parametrize("markdown", ROUND_TRIPS)
def test_markdown_round_trip_through_wiki(markdown: str) -> None:
    wiki = markdown_to_wiki(markdown)
    assert wiki_to_adf(wiki) == markdown_to_adf(markdown)
    assert markdown_to_adf(wiki_to_markdown(wiki)) == markdown_to_adf(markdown)


def test_markdown_becomes_jira_syntax() -> None:
    markdown = (
        "## Plan\n\nUse **bold**, *em*, ~~old~~, `code` and [docs](https://d.test).\n\n"
        "- one\n  - deeper\n\n1. first\n\n```py\nx = 1\n```\n\n> said\n\n---"
    )
    assert markdown_to_wiki(markdown) == (
        "h2. Plan\n\nUse *bold*, _em_, -old-, {{code}} and [docs|https://d.test].\n\n"
        "* one\n** deeper\n\n# first\n\n{code:py}\nx = 1\n{code}\n\n{quote}\nsaid\n{quote}\n\n----"
    )


def test_wiki_written_by_people() -> None:
    wiki = (
        "h1. Title\n\n* a\n** b\n*# c\n* d\n\nbq. quoted\n\n{noformat}\nraw *x*\n{noformat}\n\n"
        "{quote}\nq1\n\nq2\n{quote}\n\nline\\\\next -strike- +under+ ??cite?? [~alice] "
        "[not a link] [https://a.test] {code:java|title=X}int x;{code}"
    )
    assert adf_to_markdown(wiki_to_adf(wiki)) == (
        "# Title\n\n- a\n  - b\n  1. c\n- d\n\n> quoted\n\n```\nraw *x*\n```\n\n> q1\n>\n> q2\n\n"
        "line\nnext ~~strike~~ under cite @alice [not a link] [https://a.test](https://a.test)"
        "\n\n```java\nint x;\n```"
    )
    code = wiki_to_adf("{code:java|title=X}\nint x;\n{code}")["content"][0]
    assert code == {
        "type": "codeBlock",
        "attrs": {"language": "java"},
        "content": [{"type": "text", "text": "int x;"}],
    }
    assert wiki_to_adf("{code}\nplain\n{code}")["content"][0].get("attrs") is None


def test_tables() -> None:
    doc = wiki_to_adf("||Name||Link||\n|a|[x|https://y.test]|")
    header, row = doc["content"][0]["content"]
    assert [c["type"] for c in header["content"]] == ["tableHeader", "tableHeader"]
    assert adf_to_markdown(doc) == "| Name | Link |\n| --- | --- |\n| a | [x](https://y.test) |"
    assert adf_to_wiki(doc) == "||Name||Link||\n|a|[x|https://y.test]|"
    escaped = wiki_to_adf("||Name||Link||\n|a \\| b|c|")["content"][0]["content"][1]
    assert escaped["content"][0]["content"][0]["content"] == [{"type": "text", "text": "a | b"}]


def test_markup_characters_in_text_are_escaped_only_where_they_would_act() -> None:
    assert markdown_to_wiki("snake_case and a-b and 2 * 3") == "snake_case and a-b and 2 * 3"
    assert markdown_to_wiki("power(2, -1) is *not* {x}") == "power(2, \\-1) is _not_ \\{x\\}"
    escaped = wiki_to_adf("power(2, \\-1) is \\*not\\*")["content"][0]["content"]
    assert escaped == [{"type": "text", "text": "power(2, -1) is *not*"}]


def test_empty_values() -> None:
    assert wiki_to_markdown(None) == ""
    assert wiki_to_markdown("") == ""
    assert adf_to_wiki(None) == ""
