"""Markdown <-> ADF: round trips, valid ADF marks, and tolerance of unknown nodes."""

import pytest

from integrations.jira.adf import adf_to_markdown, markdown_to_adf

ROUND_TRIPS = [
    "Just one paragraph.",
    "# Title\n\n## Section\n\nText with **bold**, *italics*, ~~gone~~ and `code`.",
    "A [link](https://example.com/a?b=1) and [**bold link**](https://x.test).",
    "First line\nsecond line of the same paragraph.",
    "- one\n- two with `x`\n  - nested\n  - nested too\n- three",
    "1. first\n2. second\n   still second\n3. third",
    "3. starts at three\n4. four",
    "```python\ndef power(base, exponent):\n\n    return base ** exponent\n```",
    "```\nno language\n```",
    "> quoted\n> more",
    "above\n\n---\n\nbelow",
    "**bold `code` inside** and snake_case_name and 2 * 3 * 4",
    "- item\n\n  ```sh\n  make test\n  ```",
]


@pytest.mark.parametrize("markdown", ROUND_TRIPS)
def test_markdown_round_trip(markdown: str) -> None:
    doc = markdown_to_adf(markdown)
    assert adf_to_markdown(doc) == markdown.replace("- item\n\n", "- item\n")
    assert markdown_to_adf(adf_to_markdown(doc)) == doc


def test_structure() -> None:
    doc = markdown_to_adf("## Plan\n\n3. step\n\n```py\nx = 1\n```\n\nSee [docs](https://d.test).")
    assert doc["type"] == "doc" and doc["version"] == 1
    heading, ordered, code, paragraph = doc["content"]
    assert heading == {
        "type": "heading",
        "attrs": {"level": 2},
        "content": [{"type": "text", "text": "Plan"}],
    }
    assert ordered["type"] == "orderedList" and ordered["attrs"] == {"order": 3}
    assert code == {
        "type": "codeBlock",
        "attrs": {"language": "py"},
        "content": [{"type": "text", "text": "x = 1"}],
    }
    assert paragraph["content"][1] == {
        "type": "text",
        "text": "docs",
        "marks": [{"type": "link", "attrs": {"href": "https://d.test"}}],
    }


def test_code_mark_is_only_combined_with_links() -> None:
    doc = markdown_to_adf("**a `b` c** [`d`](https://e.test)")
    nodes = doc["content"][0]["content"]
    code_marks = [[m["type"] for m in n["marks"]] for n in nodes if "code" in str(n.get("marks"))]
    assert code_marks == [["code"], ["link", "code"]]


def test_hard_breaks_and_plain_asterisks() -> None:
    nodes = markdown_to_adf("a * b\nc")["content"][0]["content"]
    assert nodes == [
        {"type": "text", "text": "a * b"},
        {"type": "hardBreak"},
        {"type": "text", "text": "c"},
    ]


def cell(kind: str, text: str) -> dict:
    return {
        "type": kind,
        "content": [{"type": "paragraph", "content": [{"type": "text", "text": text}]}],
    }


def test_unknown_nodes_contribute_their_text() -> None:
    doc = {
        "type": "doc",
        "version": 1,
        "content": [
            {
                "type": "panel",
                "attrs": {"panelType": "info"},
                "content": [
                    {
                        "type": "paragraph",
                        "content": [
                            {"type": "mention", "attrs": {"id": "alice-1", "text": "@Alice"}},
                            {"type": "text", "text": " see "},
                            {"type": "inlineCard", "attrs": {"url": "https://j.test/DEMO-2"}},
                            {"type": "emoji", "attrs": {"shortName": ":tada:", "text": "🎉"}},
                            {"type": "mysteryInline", "text": "?"},
                        ],
                    }
                ],
            },
            {"type": "mediaSingle", "content": [{"type": "media", "attrs": {"id": "1"}}]},
            {
                "type": "table",
                "content": [
                    {
                        "type": "tableRow",
                        "content": [cell("tableHeader", "a"), cell("tableHeader", "b")],
                    },
                    {
                        "type": "tableRow",
                        "content": [cell("tableCell", "1"), cell("tableCell", "2")],
                    },
                ],
            },
        ],
    }
    assert adf_to_markdown(doc) == (
        "@Alice see https://j.test/DEMO-2🎉?\n\n| a | b |\n| --- | --- |\n| 1 | 2 |"
    )


def test_empty_documents() -> None:
    assert adf_to_markdown(None) == ""
    assert adf_to_markdown({"type": "doc", "version": 1, "content": []}) == ""
    assert markdown_to_adf("") == {"type": "doc", "version": 1, "content": []}
