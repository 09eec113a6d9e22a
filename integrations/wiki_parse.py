"""Jira wiki markup parsed into ADF: headings, lists, code, quotes, tables, effects, links."""

import re

from integrations.adf_rules import normalise
from integrations.marks import Node, code_block

_CODE = re.compile(r"^\s*\{(code|noformat)(?::([^}]*))?\}(.*)$")
_QUOTE = re.compile(r"^\s*\{quote\}(.*)$")
_HEADING = re.compile(r"^\s*h([1-6])\.\s+(.*)$")
_BQ = re.compile(r"^\s*bq\.\s+(.*)$")
_RULE = re.compile(r"^\s*-{4,}\s*$")
_ITEM = re.compile(r"^\s*([*#]+|-)\s+(.*)$")
_ROW = re.compile(r"^\s*\|")
_CELL = re.compile(r"(\|\|?)((?:\{\{.*?\}\}|\[[^\]]*\]|\\.|[^|])*)")
_BODY = r"(?=\S)(?:\\.|[^\\])+?(?<=\S)(?<!\\)"
_INLINE = re.compile(
    r"(?P<br>\\\\)"
    r"|\\(?P<escaped>[^\w\s])"
    r"|\{\{(?P<code>.+?)\}\}"
    r"|\[(?P<label>(?:\\.|[^\]|\\])+)(?:\|(?P<href>[^\]]+))?\]"
    rf"|(?<!\w)\*(?P<strong>{_BODY})\*(?!\w)"
    rf"|(?<!\w)_(?P<em>{_BODY})_(?!\w)"
    rf"|(?<![\w-])-(?P<strike>{_BODY})-(?![\w-])"
    rf"|(?<!\w)\+(?P<plain>{_BODY})\+(?!\w)"
    rf"|(?<!\w)\?\?(?P<cite>{_BODY})\?\?(?!\w)"
)


def wiki_to_adf(text: str) -> Node:
    """An ADF document for wiki markup; unknown macros stay as text."""
    blocks = _blocks(text.replace("\r\n", "\n").split("\n"))
    return {"type": "doc", "version": 1, "content": normalise(blocks)}


def _starts_block(line: str) -> bool:
    patterns = (_CODE, _QUOTE, _HEADING, _BQ, _RULE, _ITEM, _ROW)
    return any(p.match(line) for p in patterns)


def _until(lines: list[str], start: int, first: str, close: str) -> tuple[list[str], int]:
    """The lines of a {code}/{quote} body whose opening line left `first`; the index after it."""
    if close in first:
        return [first.split(close, 1)[0]], start + 1
    body = [first] if first.strip() else []
    i = start + 1
    while i < len(lines) and close not in lines[i]:
        body.append(lines[i])
        i += 1
    if i < len(lines) and (last := lines[i].split(close, 1)[0]).strip():
        body.append(last)
    return body, i + 1


def _blocks(lines: list[str]) -> list[Node]:
    blocks: list[Node] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.strip():
            i += 1
        elif code := _CODE.match(line):
            body, i = _until(lines, i, code[3], f"{{{code[1]}}}")
            language = (code[2] or "").split("|")[0]
            blocks.append(code_block("\n".join(body), "" if "=" in language else language))
        elif quote := _QUOTE.match(line):
            body, i = _until(lines, i, quote[1], "{quote}")
            blocks.append({"type": "blockquote", "content": _blocks(body)})
        elif heading := _HEADING.match(line):
            level = {"level": int(heading[1])}
            blocks.append({"type": "heading", "attrs": level, "content": inline(heading[2])})
            i += 1
        elif bq := _BQ.match(line):
            blocks.append({"type": "blockquote", "content": [_paragraph([bq[1]])]})
            i += 1
        elif _RULE.match(line):
            blocks.append({"type": "rule"})
            i += 1
        elif _ITEM.match(line) or _ROW.match(line):
            kind = _ITEM if _ITEM.match(line) else _ROW
            end = i + 1
            while end < len(lines) and lines[end].strip():
                if not kind.match(lines[end]) and (kind is _ROW or _starts_block(lines[end])):
                    break
                end += 1
            blocks.extend(
                _lists(_items(lines[i:end]), 1) if kind is _ITEM else [_table(lines[i:end])]
            )
            i = end
        else:
            end = i
            while end < len(lines) and lines[end].strip() and not _starts_block(lines[end]):
                end += 1
            blocks.append(_paragraph(lines[i:end]))
            i = end
    return blocks


def _paragraph(lines: list[str]) -> Node:
    content: list[Node] = []
    for n, line in enumerate(lines):
        if n:
            content.append({"type": "hardBreak"})
        content.extend(inline(line.strip()))
    return {"type": "paragraph", "content": content}


def _items(lines: list[str]) -> list[tuple[str, list[str]]]:
    """List lines as (markers, text lines): unmarked lines continue the item above."""
    items: list[tuple[str, list[str]]] = []
    for line in lines:
        if item := _ITEM.match(line):
            items.append(("*" if item[1] == "-" else item[1], [item[2]]))
        else:
            items[-1][1].append(line)
    return items


def _lists(items: list[tuple[str, list[str]]], depth: int) -> list[Node]:
    """Nested lists from items whose markers are at least `depth` long."""
    lists: list[Node] = []
    i = 0
    while i < len(items):
        kind = items[i][0][min(depth, len(items[i][0])) - 1]
        node_type = "orderedList" if kind == "#" else "bulletList"
        if not lists or lists[-1]["type"] != node_type:
            lists.append({"type": node_type, "content": []})
        markers, text = items[i]
        end = i + 1
        while end < len(items) and len(items[end][0]) > depth:
            end += 1
        content = [] if len(markers) > depth else [_paragraph(text)]
        children = items[i + 1 : end] if content else items[i:end]
        if children:
            content.extend(_lists(children, depth + 1))
        lists[-1]["content"].append({"type": "listItem", "content": content})
        i = end
    return lists


def _table(lines: list[str]) -> Node:
    rows = []
    for line in lines:
        found = _CELL.findall(line.strip())
        if found and not found[-1][1].strip():
            found.pop()  # the separator that closes the row
        cells = [
            {
                "type": "tableHeader" if separator == "||" else "tableCell",
                "content": [_paragraph([text.strip()])],
            }
            for separator, text in found
        ]
        rows.append({"type": "tableRow", "content": cells})
    return {"type": "table", "content": rows}


def inline(text: str, marks: tuple[Node, ...] = ()) -> list[Node]:
    """ADF inline nodes for one line of wiki text."""
    nodes: list[Node] = []
    pos = 0
    for m in _INLINE.finditer(text):
        nodes.extend(_text(text[pos : m.start()], marks))
        pos = m.end()
        if m["br"] is not None:
            nodes.append({"type": "hardBreak"})
        elif m["escaped"] is not None:
            nodes.extend(_text(m["escaped"], marks))
        elif m["code"] is not None:
            links = tuple(k for k in marks if k["type"] == "link")
            nodes.extend(_text(m["code"], (*links, {"type": "code"})))
        elif m["label"] is not None:
            nodes.extend(_link(m["label"], m["href"], marks) or _text(m[0], marks))
        else:
            kind = next(k for k in ("strong", "em", "strike", "plain", "cite") if m[k])
            inner = marks if kind in ("plain", "cite") else (*marks, {"type": kind})
            nodes.extend(inline(m[kind], inner))
    nodes.extend(_text(text[pos:], marks))
    return _merge(nodes)


def _link(label: str, href: str | None, marks: tuple[Node, ...]) -> list[Node]:
    """A link: [label|url] or [url]; anything else in brackets is not one."""
    target = (href or label).strip()
    if not re.match(r"^(https?|mailto|ftp):", target):
        return []
    link = (*marks, {"type": "link", "attrs": {"href": target}})
    return inline(label, link) if href else _text(target, link)


def _text(text: str, marks: tuple[Node, ...]) -> list[Node]:
    if not text:
        return []
    node: Node = {"type": "text", "text": text}
    return [node | {"marks": list(marks)}] if marks else [node]


def _merge(nodes: list[Node]) -> list[Node]:
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
