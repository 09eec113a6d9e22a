"""Rendering ADF inline nodes with their marks as text: shared by markdown and wiki markup."""

from collections.abc import Callable
from itertools import groupby
from typing import Any

Node = dict[str, Any]
# (mark kind, the mark, the rendered text it covers) -> the text wrapped in that mark's syntax
Wrap = Callable[[str, Node, str], str]
Leaf = Callable[[Node], str]

MARK_ORDER = ("link", "strong", "em", "strike")


def code_block(code: str, language: str) -> Node:
    """An ADF code block, with its language when one is given."""
    node: Node = {"type": "codeBlock", "content": [{"type": "text", "text": code}] if code else []}
    if language:
        node["attrs"] = {"language": language}
    return node


def mark(node: Node, kind: str) -> Node | None:
    """The node's mark of a kind, if it has one."""
    return next((m for m in node.get("marks") or [] if m.get("type") == kind), None)


def render_inline(
    nodes: list[Node], leaf: Leaf, wrap: Wrap, order: tuple[str, ...] = MARK_ORDER
) -> str:
    """Text for inline nodes: runs sharing a mark are wrapped once, outermost mark first."""
    if not order:
        return "".join(leaf(n) for n in nodes)
    kind, rest = order[0], order[1:]
    keys = [mark(n, kind) for n in nodes]
    if kind != "link":
        # A code span inside bold/italic text cannot carry those marks in ADF: keep the run whole.
        for i in range(1, len(nodes) - 1):
            if (
                keys[i] is None
                and mark(nodes[i], "code")
                and keys[i - 1] == mark(nodes[i + 1], kind)
            ):
                keys[i] = keys[i - 1]
    out = []
    for key, run in groupby(zip(keys, nodes, strict=True), key=lambda pair: pair[0]):
        inner = render_inline([n for _, n in run], leaf, wrap, rest)
        out.append(inner if key is None else wrap(kind, key, inner))
    return "".join(out)
