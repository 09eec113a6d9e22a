"""Reading a file for a worker (a window of it when long) and splicing the answer back."""

import re
from dataclasses import dataclass
from pathlib import Path

from graphs.analysis.index import terms

# About 1,250 tokens: shown and rewritten whole, it leaves room in a 4,096-token context.
MAX_WINDOW_CHARS = 4000
_DEFINITION = re.compile(r"^\s*(?:export\s+)?(?:async\s+def|def|class|function|func|fn)\s+(\w+)")
_CODE_NAMES = re.compile(r"\b\w+(?:\.\w+)+|\b\w+_\w+\b|\b\w+(?=\(\))|`(\w+)`")
FENCE_LANGUAGES = {
    ".py": "python",
    ".js": "javascript",
    ".ts": "typescript",
    ".tsx": "tsx",
    ".go": "go",
    ".rs": "rust",
    ".java": "java",
    ".rb": "ruby",
    ".md": "markdown",
    ".json": "json",
    ".toml": "toml",
    ".yaml": "yaml",
    ".yml": "yaml",
    ".sh": "bash",
    ".html": "html",
    ".css": "css",
    ".sql": "sql",
}


@dataclass(frozen=True)
class Window:
    """Lines [start, end) of a file of `total` lines, and their text."""

    start: int
    end: int
    total: int
    text: str

    @property
    def whole(self) -> bool:
        """Whether the window is the whole file."""
        return self.start == 0 and self.end == self.total


def fence_language(path: str) -> str:
    """The info string for a fenced block of this file."""
    return FENCE_LANGUAGES.get(Path(path).suffix.lower(), "")


def code_names(text: str) -> set[str]:
    """Names a text spells as code: `a.b.c` (each part), snake_case, `name()`, `name`."""
    names: set[str] = set()
    for found in _CODE_NAMES.finditer(text):
        names.update(part for part in found[0].strip("`").split(".") if part)
    return names


def choose_window(content: str, query: str, max_chars: int = MAX_WINDOW_CHARS) -> Window:
    """The whole file when short, else the lines around the one that best matches the query."""
    lines = content.splitlines(keepends=True)
    if len(content) <= max_chars:
        return Window(0, len(lines), len(lines), content)
    wanted = set(terms(query))
    named = code_names(query)
    scores = [len(wanted.intersection(terms(line))) for line in lines]
    for number, line in enumerate(lines):  # the definition of a name the query spells as code
        found = _DEFINITION.match(line)
        if found and found[1] in named:
            scores[number] += 1000
    centre = scores.index(max(scores))
    start, end, size = centre, centre + 1, len(lines[centre])
    while start > 0 or end < len(lines):
        grew = False
        for side in ("before", "after"):
            if side == "before" and start > 0 and size + len(lines[start - 1]) <= max_chars:
                start -= 1
                size += len(lines[start])
                grew = True
            if side == "after" and end < len(lines) and size + len(lines[end]) <= max_chars:
                size += len(lines[end])
                end += 1
                grew = True
        if not grew:
            break
    return Window(start, end, len(lines), "".join(lines[start:end]))


def echoed(shown: list[str], answer: list[str]) -> int:
    """How many of the answer's first lines repeat the last lines shown, if any is not blank."""
    for count in range(min(len(shown), len(answer) - 1), 0, -1):
        tail, head = shown[len(shown) - count :], answer[:count]
        if any(line.strip() for line in head) and [t.rstrip() for t in tail] == [
            h.rstrip() for h in head
        ]:
            return count
    return 0


def without_echo(lines: list[str], window: Window, new_text: str) -> str:
    """The window's answer without lines it copied from just before or after the window: the
    small model, shown lines 5-6, was seen answering with lines 3-6."""
    answer = new_text.splitlines(keepends=True)
    answer = answer[echoed(lines[: window.start], answer) :]
    after = [line.rstrip() for line in lines[window.end :]]
    reversed_tail = echoed(after[::-1], [a.rstrip() for a in answer[::-1]])
    return "".join(answer[: len(answer) - reversed_tail])


def splice(content: str, window: Window, new_text: str) -> str:
    """The file with the window's lines replaced by `new_text` (less lines it echoed from
    around the window)."""
    lines = content.splitlines(keepends=True)
    if not window.whole:
        new_text = without_echo(lines, window, new_text)
    if (
        new_text
        and not new_text.endswith("\n")
        and (window.end < window.total or content.endswith("\n"))
    ):
        new_text += "\n"
    return "".join(lines[: window.start]) + new_text + "".join(lines[window.end :])


def same_text(old: str, new: str) -> bool:
    """Whether two file texts differ only in trailing whitespace."""
    return old.rstrip() == new.rstrip()


def focus_window(text: str, focus: tuple[int, int]) -> Window | None:
    """The window of those lines, if the text still has them."""
    lines = text.splitlines(keepends=True)
    first, last = focus
    if not 0 < first <= last <= len(lines):
        return None
    return Window(first - 1, last, len(lines), "".join(lines[first - 1 : last]))
