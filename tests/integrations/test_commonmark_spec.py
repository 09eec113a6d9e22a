"""Every example of the CommonMark specification becomes valid ADF and keeps all of its text."""

import json
import re
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from emulators.adf_check import adf_problems
from integrations.jira.adf import adf_to_markdown, markdown_to_adf
from integrations.jira.wiki import adf_to_wiki

SPEC = json.loads((Path(__file__).parent / "data" / "commonmark-spec-0.31.2.json").read_text())
WORD = re.compile(r"\w+")
BLOCKS = {"p", "li", "ul", "ol", "pre", "blockquote", "hr", "br", "table", "tr", "th", "td"}
BLOCKS |= {f"h{level}" for level in range(1, 7)}


class TextOf(HTMLParser):
    """The text a browser shows for HTML, with an image's alternative text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []

    def handle_data(self, data: str) -> None:
        self.parts.append(data)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in BLOCKS:
            self.parts.append(" ")
        if tag == "img":
            self.parts.append(dict(attrs).get("alt") or "")


def html_words(html: str) -> Counter[str]:
    parser = TextOf()
    parser.feed(html)
    parser.close()
    return Counter(WORD.findall("".join(parser.parts)))


def adf_text(node: Any) -> str:
    """The text of an ADF node as shown: inline nodes run together, blocks apart."""
    if node.get("type") == "text":
        return str(node["text"])
    if node.get("type") == "hardBreak":
        return "\n"
    inline = node.get("type") in ("paragraph", "heading", "codeBlock")
    return ("" if inline else " ").join(adf_text(child) for child in node.get("content") or [])


def adf_words(doc: Any) -> Counter[str]:
    return Counter(WORD.findall(adf_text(doc)))


@pytest.mark.parametrize("example", SPEC, ids=[f"{e['example']}-{e['section']}" for e in SPEC])
def test_spec_example_gives_valid_adf_and_loses_no_text(example: dict[str, Any]) -> None:
    doc = markdown_to_adf(example["markdown"])
    assert adf_problems(doc) == []
    missing = html_words(example["html"]) - adf_words(doc)
    assert not missing, f"lost {sorted(missing.elements())} of {example['markdown']!r}"
    assert adf_problems(markdown_to_adf(adf_to_markdown(doc))) == []
    assert isinstance(adf_to_wiki(doc), str)
