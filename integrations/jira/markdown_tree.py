"""The one markdown parser: CommonMark (markdown-it-py) with tables and strikethrough, as ADF.

The parser's syntax tree becomes Atlassian Document Format; `normalise` then reshapes what
markdown allows and ADF does not (a heading in a quote, a quote in a list item). Wiki markup is
rendered from that ADF, so every markdown text is parsed exactly once, by one parser.
"""

from functools import cache

from markdown_it import MarkdownIt
from markdown_it.tree import SyntaxTreeNode

from integrations.jira.adf_rules import normalise
from integrations.jira.marks import Node, code_block

_MARK_OF_TOKEN = {"strong": "strong", "em": "em", "s": "strike"}


@cache
def _parser() -> MarkdownIt:
    return MarkdownIt("commonmark").enable(["table", "strikethrough"])


def markdown_to_adf(text: str) -> Node:
    """An ADF document for CommonMark markdown (with tables and ~~strikethrough~~)."""
    tree = SyntaxTreeNode(_parser().parse(text))
    return {"type": "doc", "version": 1, "content": normalise(_blocks(tree.children))}


def _blocks(nodes: list[SyntaxTreeNode]) -> list[Node]:
    return [block for node in nodes for block in _block(node)]


def _block(node: SyntaxTreeNode) -> list[Node]:
    kind = node.type
    if kind == "paragraph":
        return [{"type": "paragraph", "content": _inline_of(node)}]
    if kind == "heading":
        level = int(node.tag[1])
        return [{"type": "heading", "attrs": {"level": level}, "content": _inline_of(node)}]
    if kind in ("fence", "code_block"):
        language = node.info.split()[0] if node.info.strip() else ""
        return [code_block(node.content.removesuffix("\n"), language)]
    if kind == "hr":
        return [{"type": "rule"}]
    if kind == "blockquote":
        return [{"type": "blockquote", "content": _blocks(node.children)}]
    if kind in ("bullet_list", "ordered_list"):
        return [_list(node)]
    if kind == "table":
        return [_table(node)]
    if kind == "html_block":  # ADF has no HTML: the markup stays readable as written
        return [_lines_paragraph(node.content.removesuffix("\n"))]
    return _blocks(node.children)


def _list(node: SyntaxTreeNode) -> Node:
    items = [{"type": "listItem", "content": _blocks(item.children)} for item in node.children]
    if node.type == "bullet_list":
        return {"type": "bulletList", "content": items}
    ordered: Node = {"type": "orderedList", "content": items}
    start = int(node.attrs.get("start", 1))
    if start != 1:
        ordered["attrs"] = {"order": start}
    return ordered


def _table(node: SyntaxTreeNode) -> Node:
    rows = []
    for section in node.children:  # thead, tbody
        for row in section.children:
            cells = [
                {
                    "type": "tableHeader" if cell.type == "th" else "tableCell",
                    "content": [{"type": "paragraph", "content": _inline_of(cell)}],
                }
                for cell in row.children
            ]
            rows.append({"type": "tableRow", "content": cells})
    return {"type": "table", "content": rows}


def _lines_paragraph(text: str) -> Node:
    content: list[Node] = []
    for number, line in enumerate(text.split("\n")):
        if number:
            content.append({"type": "hardBreak"})
        content += _text(line, ())
    return {"type": "paragraph", "content": content}


def _inline_of(node: SyntaxTreeNode) -> list[Node]:
    """The inline content of a paragraph, heading or table cell."""
    inline = [child for child in node.children if child.type == "inline"]
    return _merged(_inline(inline[0].children, ())) if inline else []


def _inline(nodes: list[SyntaxTreeNode], marks: tuple[Node, ...]) -> list[Node]:
    out: list[Node] = []
    for node in nodes:
        kind = node.type
        if kind in ("text", "html_inline"):
            out += _text(node.content, marks)
        elif kind in ("softbreak", "hardbreak"):
            # A line break in the source is one the reader meant: Jira shows it as written.
            out.append({"type": "hardBreak"})
        elif kind == "code_inline":
            # ADF allows the code mark together with a link only.
            links = tuple(m for m in marks if m["type"] == "link")
            out += _text(node.content, (*links, {"type": "code"}))
        elif kind in _MARK_OF_TOKEN:
            out += _inline(node.children, _with(marks, {"type": _MARK_OF_TOKEN[kind]}))
        elif kind == "link":
            href = str(node.attrs.get("href", ""))
            link = {"type": "link", "attrs": {"href": href}}
            out += _inline(node.children, _with(marks, link) if href else marks)
        elif kind == "image":  # no media upload here: the image's text, linked to its source
            src = str(node.attrs.get("src", ""))
            link = {"type": "link", "attrs": {"href": src}}
            alt = _inline(node.children, _with(marks, link) if src else marks)
            out += alt or _text(src, marks)
        else:
            out += _inline(node.children, marks)
    return out


def _with(marks: tuple[Node, ...], mark: Node) -> tuple[Node, ...]:
    """The marks plus one more; a kind already there (a link in a link) is not repeated."""
    if any(m["type"] == mark["type"] for m in marks):
        return marks
    return (*marks, mark)


def _text(text: str, marks: tuple[Node, ...]) -> list[Node]:
    if not text:
        return []
    node: Node = {"type": "text", "text": text}
    return [node | {"marks": list(marks)}] if marks else [node]


def _merged(nodes: list[Node]) -> list[Node]:
    merged: list[Node] = []
    for node in nodes:
        last = merged[-1] if merged else None
        if (
            last
            and last["type"] == node["type"] == "text"
            and last.get("marks") == node.get("marks")
        ):
            merged[-1] = {**last, "text": last["text"] + node["text"]}
        else:
            merged.append(node)
    return merged
