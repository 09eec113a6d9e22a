"""markdown_to_adf keeps to the ADF schema Jira Cloud enforces; the emulator's check of it."""

import re
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from emulators.adf_check import adf_problems
from harness.serving import serve
from integrations.jira.adf import adf_to_markdown, markdown_to_adf
from integrations.jira.adf_rules import normalise
from integrations.jira.client import JiraClient
from integrations.jira.wiki import wiki_to_adf
from tests.emulators.helpers import BOT

EMPTY_PARAGRAPH = {"type": "paragraph", "content": []}
INVALID_INPUT = {
    "errorMessages": ["INVALID_INPUT"],
    "errors": {"comment": "Comment body is not valid!"},
}

MARKDOWN = {
    "heading in quote": "> # Heads up",
    "quote in quote": "> > deeper",
    "rule in quote": "> above\n> ---\n> below",
    "bare quote mark": ">",
    "heading in item": "- # title",
    "quote in item": "- > quoted",
    "list opens item": "- - inner",
    "empty bullet": "- ",
    "empty numbered": "1. ",
    "rule in item": "- ***",
    "empty heading in item": "- # ",
    "quote, list, quote, heading": "> - > nested quote\n>   # nested heading",
    "three deep": "- one\n  - two\n    - three\n      - four",
    "three deep, each opening with a list": "- - - x",
    "code in item": "- step\n\n  ```\n  make test\n  ```",
    "item opens with code": "1. ```\n   echo first\n   ```",
    "table in quote": "> | name | value |\n> | --- | --- |\n> | alpha | beta |",
    "headings in table cells": "| # left | ## right |\n| --- | --- |\n| one | two |",
    "heading with marks in quote": "> ## **bold** `code` and [link](https://l.test) *em*",
    "empty lines": "\n\n   \n\nword\n\n\n> \n>\n> quoted word\n\n- \n\n",
    "whitespace only": "  \n\t\n ",
    "empty": "",
}


def words(text: str) -> set[str]:
    """The words of a text, leaving out link targets (they live in marks, not text)."""
    return set(re.findall(r"[A-Za-z]+", re.sub(r"\]\([^)]*\)", "]", text)))


def texts(node: Any) -> str:
    """Every text node's text under a node, space-separated."""
    if isinstance(node, list):
        return " ".join(texts(n) for n in node)
    own = [node["text"]] if node.get("type") == "text" else []
    return " ".join([*own, texts(node.get("content") or [])])


@pytest.mark.parametrize("markdown", MARKDOWN.values(), ids=MARKDOWN.keys())
def test_markdown_gives_valid_adf_and_keeps_the_words(markdown: str) -> None:
    doc = markdown_to_adf(markdown)
    assert adf_problems(doc) == []
    assert words(markdown) <= words(texts(doc))
    assert normalise(doc["content"]) == doc["content"]
    assert adf_problems(markdown_to_adf(adf_to_markdown(doc))) == []


def test_quote_and_item_shapes() -> None:
    def blocks(markdown: str) -> list[dict]:
        return markdown_to_adf(markdown)["content"]

    strong = {"type": "text", "text": "H", "marks": [{"type": "strong"}]}
    assert blocks("> # H") == [
        {"type": "blockquote", "content": [{"type": "paragraph", "content": [strong]}]}
    ]
    assert blocks("> > x") == blocks("> x")
    assert blocks("> ---") == blocks(">") == blocks("") == []
    assert blocks("- ")[0]["content"] == [{"type": "listItem", "content": [EMPTY_PARAGRAPH]}]
    first, inner = blocks("- - x")[0]["content"][0]["content"]
    assert first == EMPTY_PARAGRAPH and inner["type"] == "bulletList"
    assert blocks("- > q") == blocks("- q")
    assert adf_to_markdown(markdown_to_adf("- - x")) == "- - x"


def doc(*content: dict) -> dict:
    return {"type": "doc", "version": 1, "content": list(content)}


def para(*content: dict) -> dict:
    return {"type": "paragraph", "content": list(content)}


def text(value: str, *marks: str) -> dict:
    node: dict = {"type": "text", "text": value}
    return node | {"marks": [{"type": m} for m in marks]} if marks else node


def quote(*content: dict) -> dict:
    return {"type": "blockquote", "content": list(content)}


def bullets(*items: list[dict]) -> dict:
    return {"type": "bulletList", "content": [{"type": "listItem", "content": i} for i in items]}


def heading(level: int, value: str = "h") -> dict:
    return {"type": "heading", "attrs": {"level": level}, "content": [text(value)]}


def table(*cells: dict) -> dict:
    return {"type": "table", "content": [{"type": "tableRow", "content": list(cells)}]}


RULE = {"type": "rule"}
FORBIDDEN = {
    "heading in quote": doc(quote(heading(1))),
    "quote in quote": doc(quote(quote(para(text("x"))))),
    "rule in quote": doc(quote(para(text("x")), RULE)),
    "empty quote": doc(quote()),
    "heading in item": doc(bullets([heading(2)])),
    "quote in item": doc(bullets([para(text("x")), quote(para(text("q")))])),
    "rule in item": doc(bullets([para(text("x")), RULE])),
    "list opens item": doc(bullets([bullets([para(text("x"))])])),
    "empty item": doc(bullets([])),
    "empty list": doc({"type": "bulletList", "content": []}),
    "empty text": doc(para(text(""))),
    "block in paragraph": doc(para(para(text("x")))),
    "text at top level": doc(text("x")),
    "heading level 7": doc(heading(7)),
    "heading without level": doc({"type": "heading", "content": [text("h")]}),
    "marked code block": doc({"type": "codeBlock", "content": [text("x", "strong")]}),
    "code mark with strong": doc(para(text("x", "code", "strong"))),
    "link without href": doc(para(text("x", "link"))),
    "empty table cell": doc(table({"type": "tableCell", "content": []})),
    "paragraph in table row": doc(
        {"type": "table", "content": [{"type": "tableRow", "content": [para()]}]}
    ),
    "unknown node": doc({"type": "sparkle"}),
    "content not a list": doc({"type": "paragraph", "content": "x"}),
    "wrong version": {"type": "doc", "version": 2, "content": []},
    "not a doc": {"type": "paragraph", "content": []},
}


@pytest.mark.parametrize("bad", FORBIDDEN.values(), ids=FORBIDDEN.keys())
def test_forbidden_shapes_are_caught(bad: dict) -> None:
    assert adf_problems(bad)


def test_valid_hand_built_shapes_pass() -> None:
    link = {"type": "link", "attrs": {"href": "https://l.test"}}
    linked_code = text("x") | {"marks": [link, {"type": "code"}]}
    cell = {"type": "tableHeader", "content": [heading(3), para(linked_code)]}
    item = [
        {"type": "codeBlock", "content": [text("x")]},
        bullets([EMPTY_PARAGRAPH, bullets([para()])]),
    ]
    valid = doc(
        heading(6),
        quote(
            para(text("q", "strong", "em")),
            bullets([para(text("i"))]),
            {"type": "codeBlock", "content": []},
        ),
        bullets(item),
        table(cell, {"type": "tableCell", "content": [para()]}),
        RULE,
        para(text("a"), {"type": "hardBreak"}, {"type": "mention", "attrs": {"id": "1"}}),
    )
    assert adf_problems(valid) == []
    assert adf_problems(doc()) == []


def test_problems_say_where() -> None:
    assert adf_problems(doc(para(text("ok")), quote(heading(1)))) == [
        "doc.content[1].content[0]: heading cannot be in blockquote"
    ]


async def test_emulator_rejects_invalid_adf_and_takes_the_converted_markdown(app: FastAPI) -> None:
    markdown = "> # Heads up\n> > nested\n\n- - inner"
    hand_built = doc(
        quote(heading(1, "Heads up"), quote(para(text("nested")))),
        bullets([bullets([para(text("inner"))])]),
    )
    with serve(app) as url:
        async with httpx.AsyncClient(base_url=url) as http:
            posted = await http.post(
                "/rest/api/3/issue/DEMO-1/comment", json={"body": hand_built}, headers=BOT
            )
        assert (posted.status_code, posted.json()) == (400, INVALID_INPUT)
        async with JiraClient(url, "ticketsmith@example.com", "token", 3) as jira:
            comment = await jira.add_comment("DEMO-1", markdown)
            assert [c.id for c in await jira.list_comments("DEMO-1")] == [comment.id]
    assert comment.body == "> **Heads up**\n>\n> nested\n\n- - inner"


@pytest.mark.parametrize(
    "wiki", ["{quote}\nh1. Title\n----\ntext\n{quote}", "{quote}\n{quote}", "** deep\n* top"]
)
def test_wiki_markup_converts_to_valid_adf_too(wiki: str) -> None:
    assert adf_problems(wiki_to_adf(wiki)) == []
