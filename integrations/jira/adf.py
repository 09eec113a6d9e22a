"""Markdown to Atlassian Document Format (Jira Cloud rich text) and back.

Markdown is parsed by markdown-it-py (integrations/jira/markdown_tree.py); this module renders ADF
back to markdown for the agents.
"""

from datetime import UTC, datetime

from integrations.jira.markdown_tree import markdown_to_adf
from integrations.jira.marks import Node, mark, render_inline

__all__ = ["adf_to_markdown", "leaf_text", "markdown_to_adf"]

_WRAP = {"strong": "**", "em": "*", "strike": "~~"}
_INLINE_NODES = {"text", "hardBreak", "mention", "emoji", "inlineCard", "date", "status"}
# Inline nodes without text of their own: the attributes that stand for them, best first.
_LEAF_ATTRS = {
    "mention": ("text", "id"),
    "emoji": ("text", "shortName"),
    "inlineCard": ("url",),
    "status": ("text",),
}


def adf_to_markdown(doc: Node | None) -> str:
    """Markdown for an ADF document; nodes it does not know contribute their text."""
    if not doc:
        return ""
    return _render_blocks(doc.get("content") or [], "\n\n")


def _render_blocks(nodes: list[Node], separator: str) -> str:
    rendered = (_render_block(n) for n in nodes)
    return separator.join(r for r in rendered if r)


def _render_block(node: Node) -> str:
    kind, attrs, content = node.get("type"), node.get("attrs") or {}, node.get("content") or []
    if kind == "paragraph":
        return _render_inline(content)
    if kind == "heading":
        return "#" * int(attrs.get("level", 1)) + " " + _render_inline(content)
    if kind == "codeBlock":
        code = "".join(n.get("text", "") for n in content)
        return f"```{attrs.get('language') or ''}\n{code}\n```"
    if kind in ("bulletList", "orderedList"):
        return _render_list(node)
    if kind == "blockquote":
        return "\n".join(
            f"> {line}".rstrip() for line in _render_blocks(content, "\n\n").split("\n")
        )
    if kind == "rule":
        return "---"
    if kind == "table":
        return _render_table(node)
    if content and all(_is_inline(n) for n in content):
        return _render_inline(content)
    return _render_blocks(content, "\n\n") if content else node.get("text", "")


def _render_list(node: Node) -> str:
    start = int((node.get("attrs") or {}).get("order", 1))
    lines: list[str] = []
    for number, item in enumerate(node.get("content") or [], start):
        marker = f"{number}. " if node["type"] == "orderedList" else "- "
        first, *rest = _render_blocks(item.get("content") or [], "\n").split("\n")
        lines.append(marker + first)
        lines.extend(" " * len(marker) + line if line else "" for line in rest)
    return "\n".join(lines)


def _render_table(node: Node) -> str:
    rows = []
    for row in node.get("content") or []:
        cells = [_render_blocks(c.get("content") or [], " ") for c in row.get("content") or []]
        rows.append("| " + " | ".join(c.replace("\n", " ") for c in cells) + " |")
        if len(rows) == 1:
            rows.append("|" + " --- |" * len(cells))
    return "\n".join(rows)


def _is_inline(node: Node) -> bool:
    return node.get("type") in _INLINE_NODES


def _render_inline(nodes: list[Node]) -> str:
    return render_inline(nodes, _render_leaf, _markdown_wrap)


def _markdown_wrap(kind: str, mark_node: Node, inner: str) -> str:
    if kind == "link":
        return f"[{inner}]({(mark_node.get('attrs') or {}).get('href', '')})"
    return f"{_WRAP[kind]}{inner}{_WRAP[kind]}"


def leaf_text(node: Node) -> str | None:
    """The text standing for a mention, emoji, card, status or date; None for other nodes."""
    kind, attrs = node.get("type"), node.get("attrs") or {}
    if kind in _LEAF_ATTRS:
        return next((str(attrs[a]) for a in _LEAF_ATTRS[kind] if attrs.get(a)), "")
    if kind == "date" and str(attrs.get("timestamp", "")).isdigit():
        return datetime.fromtimestamp(int(attrs["timestamp"]) / 1000, UTC).date().isoformat()
    return None


def _render_leaf(node: Node) -> str:
    kind = node.get("type")
    if kind == "text":
        text = node.get("text", "")
        if not mark(node, "code"):
            return text
        ticks = "``" if "`" in text else "`"
        return f"{ticks}{text}{ticks}"
    if kind == "hardBreak":
        return "\n"
    if (text := leaf_text(node)) is not None:
        return text
    if node.get("content"):
        return _render_block(node)
    return node.get("text", "")
