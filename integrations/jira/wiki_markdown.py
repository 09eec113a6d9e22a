"""Jira wiki markup to markdown with jira2markdown, tuned to keep the text as people wrote it.

The markdown then goes through the one markdown parser (integrations/jira/markdown_tree.py) when ADF
is wanted. Changes to jira2markdown's defaults: a code block without a language gets none (not
Java); underline, citation, super- and subscript and colours keep their text without HTML tags
(ADF has no HTML); dashes stay dashes; a backslash escape stays an escape.
"""

from functools import cache

import jira2markdown.parser  # noqa: F401  (sets pyparsing's whitespace rule the grammar needs)
from jira2markdown.elements import MarkupElements
from jira2markdown.markup.advanced import Code
from jira2markdown.markup.base import AbstractMarkup
from jira2markdown.markup.text_breaks import LineBreak, Mdash, Ndash
from jira2markdown.markup.text_effects import (
    Color,
    InlineQuote,
    Subscript,
    Superscript,
    Underline,
)
from pyparsing import Forward, ParserElement, ParseResults, Regex


class PlainCode(Code):
    """`{code}` is a fenced block on lines of its own (Jira shows it so even mid-line); without
    a language, a fence without one."""

    def action(self, tokens: ParseResults) -> str:
        text = tokens.text.strip("\n")
        return f"\n```{tokens.lang or ''}\n{text}\n```\n"


class PlainUnderline(Underline):
    QUOTE_CHAR = END_QUOTE_CHAR = ""


class PlainCitation(InlineQuote):
    QUOTE_CHAR = END_QUOTE_CHAR = ""


class PlainSuperscript(Superscript):
    QUOTE_CHAR = END_QUOTE_CHAR = ""


class PlainSubscript(Subscript):
    QUOTE_CHAR = END_QUOTE_CHAR = ""


class PlainColor(Color):
    """Coloured text keeps its text."""

    def action(self, tokens: ParseResults) -> str:
        return str(self.inline_markup.transform_string(tokens.text))


class Escaped(AbstractMarkup):
    """`\\-`, `\\{` and the like: the character as written, escaped for markdown."""

    @property
    def expr(self) -> ParserElement:
        return Regex(r"\\[^\w\s\\]").set_parse_action(lambda tokens: "\\" + tokens[0][1])


@cache
def _elements() -> MarkupElements:
    elements = MarkupElements()
    for old, new in (
        (Code, PlainCode),
        (Underline, PlainUnderline),
        (InlineQuote, PlainCitation),
        (Superscript, PlainSuperscript),
        (Subscript, PlainSubscript),
        (Color, PlainColor),
    ):
        elements.replace(old, new)
    elements.remove(Ndash)
    elements.remove(Mdash)
    elements.insert_after(LineBreak, Escaped)
    return elements


@cache
def _grammar() -> Forward:
    """jira2markdown's grammar with these elements, built once (as its `convert` does per call)."""
    elements = _elements()
    inline, markup = Forward(), Forward()
    inline <<= elements.expr(inline, markup, {}, [e for e in elements if e.is_inline_element])
    markup <<= elements.expr(inline, markup, {}, elements)
    return markup


def convert_wiki(wiki: str | None) -> str:
    """jira2markdown's markdown for Jira wiki markup."""
    if not wiki:
        return ""
    return str(_grammar().transform_string(wiki.replace("\r\n", "\n"))).strip("\n")
