"""Code in fenced blocks headed by the file's path: writing them and reading them back."""

import re
from dataclasses import dataclass

from markdown_it import MarkdownIt
from markdown_it.token import Token

_MARKDOWN = MarkdownIt("commonmark")
_FENCE_LINE = re.compile(r"^\s*(`{3,}|~{3,})")


@dataclass(frozen=True)
class Block:
    """One fenced block: its header (the line before it and its info string) and its body."""

    header: str
    body: str


def fence(path: str, content: str, language: str = "") -> str:
    """The content in a fenced block headed by its path, fenced longer than any run inside."""
    longest = max((len(run) for run in re.findall(r"`{3,}", content)), default=0)
    ticks = "`" * max(3, longest + 1)
    body = content if not content or content.endswith("\n") else content + "\n"
    return f"{path}\n{ticks}{language}\n{body}{ticks}"


def fenced_blocks(text: str) -> list[Block]:
    """Every fenced block in a text, in order, read as CommonMark reads it.

    Fences inside list items and quotes count, their bodies without the container's indent;
    an unclosed block runs to the end of its container. A fence indented four spaces or more
    (an indented code block to CommonMark) is read as the fence a model meant.
    """
    lines = text.splitlines()
    blocks: list[Block] = []
    for token in _MARKDOWN.parse(text):
        if token.type == "fence":
            blocks.append(_block(token, lines))
        elif token.type == "code_block" and _FENCE_LINE.match(token.content):
            before = _line_before(lines, token.map[0] if token.map else 0)
            first, *rest = fenced_blocks(_dedent(token.content))
            blocks.append(Block(header=f"{before} {first.header}".strip(), body=first.body))
            blocks += rest
    return blocks


def _block(token: Token, lines: list[str]) -> Block:
    """A fence token with the line before it and its info string as its header."""
    before = _line_before(lines, token.map[0] if token.map else 0)
    body = token.content[:-1] if token.content.endswith("\n") else token.content
    return Block(header=f"{before} {token.info.strip()}".strip(), body=body)


def _line_before(lines: list[str], start: int) -> str:
    """The last line with text before a block (without quote markers), unless it closes a fence."""
    for line in reversed(lines[:start]):
        text = re.sub(r"^(\s*>)+", "", line).strip()
        if text:
            return "" if _FENCE_LINE.match(text) else text
    return ""


def _dedent(text: str) -> str:
    """The text without the indent its first line has, as far as each line has it."""
    indent = len(text) - len(text.lstrip(" "))
    return "".join(
        line[min(indent, len(line) - len(line.lstrip(" "))) :]
        for line in text.splitlines(keepends=True)
    )


def normalise_path(path: str) -> str:
    """A repository-relative path with forward slashes and no leading `./`."""
    cleaned = path.strip().strip("`'\"").replace("\\", "/")
    while cleaned.startswith("./"):
        cleaned = cleaned[2:]
    return cleaned


def find_file_block(
    text: str, path: str, *, fallback: bool = True, unlike: str | None = None
) -> str | None:
    """The body of the block headed by `path` (else the first block when `fallback`), or None.

    With `unlike` (the file as it is), a block that repeats it gives way to a later one that
    does not: a model may quote the file before writing its new version.
    """
    blocks = fenced_blocks(text)
    wanted = normalise_path(path)
    named = [b for b in blocks if _names(b.header, wanted)]
    candidates = named or (blocks if fallback else [])
    if unlike is not None:
        changed = [b for b in candidates if b.body.rstrip() != unlike.rstrip()]
        candidates = changed[:1] or candidates
    if not candidates:
        return None
    body = candidates[0].body
    return body + "\n" if body and not body.endswith("\n") else body


def _names(header: str, path: str) -> bool:
    """Whether a block header names the path (as a whole word, not inside a longer path)."""
    pattern = rf"(?<![\w./-]){re.escape(path)}(?![\w/-]|\.\w)"
    return re.search(pattern, header.replace("\\", "/")) is not None


def safe_relative_path(path: str) -> str | None:
    """The normalised path when it stays inside the repository (and out of .git), else None."""
    cleaned = normalise_path(path)
    parts = cleaned.split("/")
    if not cleaned or cleaned.startswith("/") or re.match(r"^[A-Za-z]:", cleaned):
        return None
    if any(part in ("", ".", "..") for part in parts) or parts[0] == ".git":
        return None
    return cleaned
