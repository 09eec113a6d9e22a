"""Jira wiki markup (Server / Data Center REST v2 text) to and from ADF and markdown.

Markdown becomes wiki markup by way of its ADF (one parser for markdown); wiki markup is read
with jira2markdown (integrations/jira/wiki_markdown.py).
"""

import re

from integrations.jira.adf import adf_to_markdown, leaf_text, markdown_to_adf
from integrations.jira.marks import Node, mark, render_inline
from integrations.jira.wiki_markdown import convert_wiki

__all__ = ["adf_to_wiki", "markdown_to_wiki", "wiki_to_adf", "wiki_to_markdown"]

_WRAP = {"strong": "*", "em": "_", "strike": "-"}
# Text effects open after a non-word character and close before one: escape a marker
# character only where it could open or close one.
_EFFECT = re.compile(r"(?<!\w)[*_\-+^~](?=\S)|(?<=\S)[*_\-+^~](?!\w)")
_ALWAYS = re.compile(r"([{}\[\]|])")
_LINE_START = re.compile(r"^(\s*)([#*-]+\s|h[1-6]\.\s|bq\.\s|-{4})", re.MULTILINE)


def markdown_to_wiki(markdown: str) -> str:
    """Wiki markup for markdown (headings, lists, code, quotes, emphasis, links)."""
    return adf_to_wiki(markdown_to_adf(markdown))


def wiki_to_adf(wiki: str | None) -> Node:
    """An ADF document for wiki markup."""
    return markdown_to_adf(convert_wiki(wiki))


def wiki_to_markdown(wiki: str | None) -> str:
    """Markdown for wiki markup, written as for any ADF document (the same for v2 and v3)."""
    return adf_to_markdown(wiki_to_adf(wiki))


def adf_to_wiki(doc: Node | None) -> str:
    """Wiki markup for an ADF document; nodes it does not know contribute their text."""
    if not doc:
        return ""
    return _blocks(doc.get("content") or [], "\n\n")


def _blocks(nodes: list[Node], separator: str) -> str:
    rendered = (_block(n) for n in nodes)
    return separator.join(r for r in rendered if r)


def _block(node: Node) -> str:
    kind, attrs, content = node.get("type"), node.get("attrs") or {}, node.get("content") or []
    if kind == "paragraph":
        return _inline(content)
    if kind == "heading":
        return f"h{int(attrs.get('level', 1))}. {_inline(content)}"
    if kind == "codeBlock":
        code = "".join(n.get("text", "") for n in content)
        language = attrs.get("language")
        tag = f"{{code:{language}}}" if language else "{code}"
        return f"{tag}\n{code}\n{{code}}"
    if kind in ("bulletList", "orderedList"):
        return _list(node, "")
    if kind == "blockquote":
        return "{quote}\n" + _blocks(content, "\n\n") + "\n{quote}"
    if kind == "rule":
        return "----"
    if kind == "table":
        return "\n".join(_row(row) for row in content)
    if content and all(n.get("type") in ("text", "hardBreak") for n in content):
        return _inline(content)
    return _blocks(content, "\n\n") if content else _escape(node.get("text", ""))


def _list(node: Node, prefix: str) -> str:
    marker = prefix + ("#" if node.get("type") == "orderedList" else "*")
    lines: list[str] = []
    for item in node.get("content") or []:
        first = True
        for child in item.get("content") or []:
            if child.get("type") in ("bulletList", "orderedList"):
                lines.append(_list(child, marker))
            elif first:
                lines.append(f"{marker} {_block(child)}")
                first = False
            else:  # wiki list items hold one paragraph: later blocks continue its text
                lines.append(_block(child))
        if first:
            lines.insert(len(lines), f"{marker} ")
    return "\n".join(lines)


def _row(row: Node) -> str:
    out = ""
    for cell in row.get("content") or []:
        separator = "||" if cell.get("type") == "tableHeader" else "|"
        text = _blocks(cell.get("content") or [], " ").replace("\n", " ")
        out += f"{separator}{text}"
    cells = row.get("content") or [{}]
    return out + ("||" if cells[-1].get("type") == "tableHeader" else "|")


def _inline(nodes: list[Node]) -> str:
    return render_inline(nodes, _leaf, _wrap)


def _wrap(kind: str, mark_node: Node, inner: str) -> str:
    if kind == "link":
        href = (mark_node.get("attrs") or {}).get("href", "")
        return f"[{href}]" if inner == _escape(href) else f"[{inner}|{href}]"
    return f"{_WRAP[kind]}{inner}{_WRAP[kind]}"


def _leaf(node: Node) -> str:
    kind = node.get("type")
    if kind == "text":
        text = node.get("text", "")
        return f"{{{{{text}}}}}" if mark(node, "code") else _escape(text)
    if kind == "hardBreak":
        return "\n"
    if (text := leaf_text(node)) is not None:
        return _escape(text)
    if node.get("content"):
        return _block(node)
    return _escape(node.get("text", ""))


def _escape(text: str) -> str:
    """Plain text that wiki markup shows as written: markup characters get a backslash."""
    text = _ALWAYS.sub(r"\\\1", text)
    text = _EFFECT.sub(lambda m: "\\" + m[0], text)
    return _LINE_START.sub(lambda m: m[1] + "\\" + m[2], text)
