"""A generated project as plain data: files by path, written to and read from a directory."""

import re
from pathlib import Path

from llm.fences import safe_relative_path

MAX_SLUG = 48


def slugify(text: str) -> str:
    """A short lowercase name for a request, usable as a directory and repository name."""
    words = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    slug = words[:MAX_SLUG].rstrip("-")
    return slug or "project"


def write_tree(root: Path, files: dict[str, str]) -> list[str]:
    """Write the files under root (safe relative paths only); returns the paths written."""
    written = []
    for relative, content in sorted(files.items()):
        path = safe_relative_path(relative)
        if path is None:
            continue
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        if not target.is_file() or target.read_text(encoding="utf-8", errors="replace") != content:
            target.write_text(content, encoding="utf-8", newline="")
        written.append(path)
    return written
