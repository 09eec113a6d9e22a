"""Markdown to Atlassian Document Format (Jira Cloud rich text) and back."""

import re
from datetime import UTC, datetime
from typing import Any

from integrations.adf_rules import normalise
from integrations.marks import code_block, mark, render_inline

Node = dict[str, Any]

_FENCE = re.compile(r"^\s*(`{3,}|~{3,})\s*([\w+#.-]*)\s*$")
_HEADING = re.compile(r"^\s*(#{1,6})\s+(.*?)\s*$")
_RULE = re.compile(r"^\s*([-*_])(\s*\1){2,}\s*$")
_QUOTE = re.compile(r"^\s*>\s?(.*)$")
_BULLET = re.compile(r"^\s*[-*+]\s+(.*)$")
_ORDERED = re.compile(r"^\s*(\d+)[.)]\s+(.*)$")
_INLINE = re.compile(
    r"`(?P<code>[^`]+)`"
    r"|\[(?P<label>[^\]]+)\]\((?P<href>[^)\s]+)\)"
    r"|\*\*(?P<strong>.+?)\*\*"
    r"|~~(?P<strike>.+?)~~"
    r"|(?<![\w*])\*(?P<em>[^*\s](?:[^*]*[^*\s])?)\*(?![\w*])"
    r"|(?<!\w)_(?P<em_>[^_\s](?:[^_]*[^_\s])?)_(?!\w)"
)
_WRAP = {"strong": "**", "em": "*", "strike": "~~"}
_INLINE_NODES = {"text", "hardBreak", "mention", "emoji", "inlineCard", "date", "status"}
# Inline nodes without text of their own: the attributes that stand for them, best first.
_LEAF_ATTRS = {
    "mention": ("text", "id"),
    "emoji": ("text", "shortName"),
    "inlineCard": ("url",),
    "status": ("text",),
}


def markdown_to_adf(text: str) -> Node:
    """An ADF document for markdown: headings, lists, code, quotes, bold, italics, links."""
    blocks = _blocks(text.replace("\r\n", "\n").split("\n"))
    return {"type": "doc", "version": 1, "content": normalise(blocks)}


def adf_to_markdown(doc: Node | None) -> str:
    """Markdown for an ADF document; nodes it does not know contribute their text."""
    if not doc:
        return ""
    return _render_blocks(doc.get("content") or [], "\n\n")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _item_kind(line: str) -> str | None:
    if _RULE.match(line):
        return None
    return "bullet" if _BULLET.match(line) else "ordered" if _ORDERED.match(line) else None


def _starts_block(line: str) -> bool:
    return any(p.match(line) for p in (_FENCE, _HEADING, _RULE, _QUOTE)) or bool(_item_kind(line))


def _blocks(lines: list[str]) -> list[Node]:
    blocks: list[Node] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.strip():
            i += 1
        elif fence := _FENCE.match(line):
            end = i + 1
            while end < len(lines) and not lines[end].strip().startswith(fence[1]):
                end += 1
            blocks.append(code_block("\n".join(lines[i + 1 : end]), fence[2]))
            i = end + 1
        elif heading := _HEADING.match(line):
            level = len(heading[1])
            blocks.append(
                {"type": "heading", "attrs": {"level": level}, "content": _inline(heading[2])}
            )
            i += 1
        elif _RULE.match(line):
            blocks.append({"type": "rule"})
            i += 1
        elif _QUOTE.match(line):
            end = i
            while end < len(lines) and _QUOTE.match(lines[end]):
                end += 1
            quoted = [m[1] for m in map(_QUOTE.match, lines[i:end]) if m]
            blocks.append({"type": "blockquote", "content": _blocks(quoted)})
            i = end
        elif _item_kind(line):
            end = _list_end(lines, i)
            blocks.append(_list(lines[i:end]))
            i = end
        else:
            end = i
            while end < len(lines) and lines[end].strip() and not _starts_block(lines[end]):
                end += 1
            blocks.append({"type": "paragraph", "content": _inline_lines(lines[i:end])})
            i = end
    return blocks


def _list_end(lines: list[str], start: int) -> int:
    """Index just past the list starting at `start`: same-kind items and indented lines."""
    base, kind = _indent(lines[start]), _item_kind(lines[start])

    def belongs(line: str) -> bool:
        return _indent(line) > base or (_indent(line) == base and _item_kind(line) == kind)

    i = start + 1
    while i < len(lines):
        if lines[i].strip():
            if not belongs(lines[i]):
                break
            i += 1
            continue
        nxt = next((j for j in range(i, len(lines)) if lines[j].strip()), len(lines))
        if nxt == len(lines) or not belongs(lines[nxt]):
            break
        i = nxt
    return i


def _list(lines: list[str]) -> Node:
    base = _indent(lines[0])
    ordered = _ORDERED.match(lines[0])
    items: list[list[str]] = []
    for line in lines:
        marker = _ORDERED.match(line) if ordered else _BULLET.match(line)
        if marker and _indent(line) == base:
            items.append([marker[marker.lastindex or 1]])
        else:
            items[-1].append(line)
    content = []
    for first, *rest in items:
        depth = min((_indent(r) for r in rest if r.strip()), default=0)
        body = _blocks([first, *(r[depth:] for r in rest)])
        content.append({"type": "listItem", "content": body})
    if not ordered:
        return {"type": "bulletList", "content": content}
    node: Node = {"type": "orderedList", "content": content}
    if int(ordered[1]) != 1:
        node["attrs"] = {"order": int(ordered[1])}
    return node


def _inline_lines(lines: list[str]) -> list[Node]:
    nodes: list[Node] = []
    for n, line in enumerate(lines):
        if n:
            nodes.append({"type": "hardBreak"})
        nodes.extend(_inline(line.strip()))
    return nodes


def _inline(text: str, marks: tuple[Node, ...] = ()) -> list[Node]:
    nodes: list[Node] = []
    pos = 0
    for m in _INLINE.finditer(text):
        nodes.extend(_text(text[pos : m.start()], marks))
        if m["code"] is not None:
            # ADF allows the code mark together with a link only.
            links = tuple(k for k in marks if k["type"] == "link")
            nodes.extend(_text(m["code"], (*links, {"type": "code"})))
        elif m["href"] is not None:
            nodes.extend(
                _inline(m["label"], (*marks, {"type": "link", "attrs": {"href": m["href"]}}))
            )
        else:
            kind = next(k for k in ("strong", "strike", "em", "em_") if m[k] is not None)
            nodes.extend(_inline(m[kind], (*marks, {"type": kind.rstrip("_")})))
        pos = m.end()
    nodes.extend(_text(text[pos:], marks))
    merged: list[Node] = []
    for node in nodes:
        if merged and merged[-1].get("marks") == node.get("marks"):
            merged[-1] = {**merged[-1], "text": merged[-1]["text"] + node["text"]}
        else:
            merged.append(node)
    return merged


def _text(text: str, marks: tuple[Node, ...]) -> list[Node]:
    if not text:
        return []
    node: Node = {"type": "text", "text": text}
    return [node | {"marks": list(marks)}] if marks else [node]


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
