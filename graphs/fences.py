"""Code in fenced blocks headed by the file's path: writing them and reading them back."""

import re
from dataclasses import dataclass

_OPEN = re.compile(r"^ {0,3}(`{3,}|~{3,})[ \t]*([^`]*)$")


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
    """Every fenced block in a text, in order; an unclosed last block runs to the end."""
    lines = text.splitlines()
    blocks: list[Block] = []
    i = 0
    while i < len(lines):
        match = _OPEN.match(lines[i])
        if match is None:
            i += 1
            continue
        marker, info = match.group(1), match.group(2).strip()
        closing = re.compile(rf"^ {{0,3}}{re.escape(marker[0])}{{{len(marker)},}}\s*$")
        end = next((j for j in range(i + 1, len(lines)) if closing.match(lines[j])), len(lines))
        before = lines[i - 1].strip() if i > 0 else ""
        blocks.append(Block(header=f"{before} {info}".strip(), body="\n".join(lines[i + 1 : end])))
        i = end + 1
    return blocks


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
