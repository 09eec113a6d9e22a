"""The ADF schema rules Jira Cloud holds rich text to, as a list of what a document breaks."""

from typing import Any

_INLINE = frozenset({"text", "hardBreak", "mention", "emoji", "inlineCard", "date", "status"})
_QUOTED = frozenset(
    {"paragraph", "bulletList", "orderedList", "codeBlock", "mediaGroup", "mediaSingle"}
)
_ITEM_FIRST = frozenset({"paragraph", "codeBlock", "mediaSingle"})
_ITEM_REST = _ITEM_FIRST | {"bulletList", "orderedList", "taskList"}
_PANEL = _QUOTED | {"heading", "rule", "taskList", "decisionList"}
_NESTED = _PANEL | {"panel", "blockquote"}
_CELL = _NESTED | {"nestedExpand"}
_TOP = _CELL | {"table", "expand", "blockCard"}
_CELLS = frozenset({"tableCell", "tableHeader"})
# node type -> (types allowed as its first child, types allowed after it, needs a child)
_CHILDREN: dict[str, tuple[frozenset[str], frozenset[str], bool]] = {
    "doc": (_TOP, _TOP, False),
    "paragraph": (_INLINE, _INLINE, False),
    "heading": (_INLINE, _INLINE, False),
    "codeBlock": (frozenset({"text"}), frozenset({"text"}), False),
    "blockquote": (_QUOTED, _QUOTED, True),
    "bulletList": (frozenset({"listItem"}), frozenset({"listItem"}), True),
    "orderedList": (frozenset({"listItem"}), frozenset({"listItem"}), True),
    "listItem": (_ITEM_FIRST, _ITEM_REST, True),
    "taskList": (frozenset({"taskItem"}), frozenset({"taskItem", "taskList"}), True),
    "taskItem": (_INLINE, _INLINE, False),
    "decisionList": (frozenset({"decisionItem"}), frozenset({"decisionItem"}), True),
    "decisionItem": (_INLINE, _INLINE, False),
    "table": (frozenset({"tableRow"}), frozenset({"tableRow"}), True),
    "tableRow": (_CELLS, _CELLS, True),
    "tableCell": (_CELL, _CELL, True),
    "tableHeader": (_CELL, _CELL, True),
    "panel": (_PANEL, _PANEL, True),
    "expand": (_CELL, _CELL, True),
    "nestedExpand": (_NESTED, _NESTED, True),
    "mediaSingle": (frozenset({"media"}), frozenset({"media"}), True),
    "mediaGroup": (frozenset({"media"}), frozenset({"media"}), True),
}
_LEAVES = (_INLINE - {"text"}) | {"rule", "media", "blockCard"}
_MARKS = {"strong", "em", "strike", "code", "link", "underline", "textColor", "subsup"}


def adf_problems(doc: Any) -> list[str]:
    """What makes `doc` invalid ADF, one line each, located by path; empty when it is valid."""
    if not isinstance(doc, dict) or doc.get("type") != "doc":
        return ["doc: the root is not a doc node"]
    problems = [] if doc.get("version") == 1 else ["doc: version must be 1"]
    _check(doc, "doc", problems)
    return problems


def _check(node: Any, path: str, problems: list[str]) -> None:
    if not isinstance(node, dict) or not isinstance(node.get("type"), str):
        problems.append(f"{path}: not a node")
        return
    kind, content = node["type"], node.get("content", [])
    if not isinstance(content, list):
        problems.append(f"{path}: content is not a list")
        return
    problems.extend(f"{path}: {problem}" for problem in _own_problems(node))
    if kind not in _CHILDREN:
        if kind != "text" and kind not in _LEAVES:
            problems.append(f"{path}: unknown node type {kind}")
        elif content:
            problems.append(f"{path}: {kind} holds no content")
        return
    first, rest, needs_child = _CHILDREN[kind]
    if needs_child and not content:
        problems.append(f"{path}: {kind} is empty")
    for i, child in enumerate(content):
        where = f"{path}.content[{i}]"
        child_kind = child.get("type") if isinstance(child, dict) else None
        if isinstance(child_kind, str) and child_kind not in (rest if i else first):
            place = "start" if i == 0 and child_kind in rest else "be in"
            problems.append(f"{where}: {child_kind} cannot {place} {kind}")
        _check(child, where, problems)


def _own_problems(node: dict[str, Any]) -> list[str]:
    """Problems with a node's text, attributes and marks, apart from where its children stand."""
    kind, attrs = node["type"], node.get("attrs")
    if kind == "heading":
        level = attrs.get("level") if isinstance(attrs, dict) else None
        ok = type(level) is int and 1 <= level <= 6
        return [] if ok else [f"heading level {level!r} is not 1 to 6"]
    if kind == "codeBlock":
        marked = any(isinstance(c, dict) and c.get("marks") for c in node.get("content") or [])
        return ["codeBlock text has marks"] if marked else []
    if kind != "text":
        return []
    problems = [] if isinstance(node.get("text"), str) and node["text"] else ["text is empty"]
    marks = node.get("marks") or []
    if not isinstance(marks, list) or not all(isinstance(m, dict) for m in marks):
        return [*problems, "marks are not a list of marks"]
    kinds = [m.get("type") for m in marks]
    problems.extend(f"unknown mark {k!r}" for k in kinds if k not in _MARKS)
    if "code" in kinds and set(kinds) - {"code", "link"}:
        problems.append("the code mark goes with a link mark only")
    if any(k == "link" and not _href(m) for k, m in zip(kinds, marks, strict=True)):
        problems.append("a link mark has no href")
    return problems


def _href(link: dict[str, Any]) -> str | None:
    attrs = link.get("attrs")
    href = attrs.get("href") if isinstance(attrs, dict) else None
    return href if isinstance(href, str) and href else None
