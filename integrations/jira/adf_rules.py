"""Reshaping converted blocks into what the ADF schema (and so Jira Cloud) accepts."""

from integrations.jira.marks import Node, mark

# ADF lets a list item start with only these; a list needs a paragraph before it.
_ITEM_STARTS = ("paragraph", "codeBlock", "mediaSingle")


def normalise(blocks: list[Node]) -> list[Node]:
    """Top-level blocks made schema-valid: no heading, rule, quote or table in a quote or item."""
    return [b for block in blocks for b in _block(block, nested=False)]


def _block(node: Node, nested: bool) -> list[Node]:
    """The node as blocks valid where it stands; `nested`: inside a quote or list item."""
    kind = node.get("type")
    if kind in ("paragraph", "heading", "codeBlock"):
        content = [n for n in node.get("content") or [] if n.get("type") != "text" or n.get("text")]
        if kind == "heading" and nested:
            return [{"type": "paragraph", "content": _merged([_strong(n) for n in content])}]
        return [{**node, "content": content}]
    if kind == "rule":
        return [] if nested else [node]
    if kind == "blockquote":
        content = _children(node)
        if nested or not content:
            return content
        return [{**node, "content": content}]
    if kind in ("bulletList", "orderedList"):
        return [{**node, "content": [_item(i) for i in node.get("content") or []]}]
    if kind == "table" and nested:
        return [_row_paragraph(row) for row in node.get("content") or []]
    return [node]


def _row_paragraph(row: Node) -> Node:
    """A table row as one paragraph, cells apart by ` | `: a table can stand at the top only."""
    content: list[Node] = []
    for number, cell in enumerate(row.get("content") or []):
        if number:
            content.append({"type": "text", "text": " | "})
        for block in cell.get("content") or []:
            content += [
                n for n in block.get("content") or [] if n.get("type") != "text" or n.get("text")
            ]
    return {"type": "paragraph", "content": _merged(content)}


def _children(node: Node) -> list[Node]:
    return [b for child in node.get("content") or [] for b in _block(child, nested=True)]


def _item(item: Node) -> Node:
    content = _children(item)
    if not content or content[0].get("type") not in _ITEM_STARTS:
        content = [{"type": "paragraph", "content": []}, *content]
    return {**item, "content": content}


def _strong(node: Node) -> Node:
    """The inline node in bold, which is how a heading reads where ADF allows none."""
    # The code mark goes with a link only, so code stays as it is.
    if node.get("type") != "text" or mark(node, "strong") or mark(node, "code"):
        return node
    return {**node, "marks": [*(node.get("marks") or []), {"type": "strong"}]}


def _merged(nodes: list[Node]) -> list[Node]:
    """Adjacent text nodes with the same marks joined into one."""
    merged: list[Node] = []
    for node in nodes:
        last = merged[-1] if merged else {}
        same_marks = node.get("marks") == last.get("marks")
        if same_marks and node.get("type") == last.get("type") == "text":
            merged[-1] = {**last, "text": last["text"] + node["text"]}
        else:
            merged.append(node)
    return merged
