"""Acceptance criteria written as a section of a ticket's description instead of a field."""

import re

_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
_BOLD_LINE = re.compile(r"^\s*(\*\*|__)(.+?)\1\s*:?\s*$")
_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
_FENCE = re.compile(r"^\s{0,3}(```|~~~)")
_TITLE = re.compile(r"acceptance criteria(?:\s*\(ac\))?", re.IGNORECASE)


def _title(line: str) -> tuple[int, str] | None:
    """The heading level (7 for a bold or colon label) and title of a line that starts a part."""
    heading = _HEADING.match(line)
    if heading:
        return len(heading.group(1)), heading.group(2)
    bold = _BOLD_LINE.match(line)
    if bold:
        return 7, bold.group(2)
    stripped = line.strip()
    if stripped.endswith(":") and len(stripped) < 40 and not _LIST_ITEM.match(line):
        return 7, stripped
    return None


def _is_criteria_title(title: str) -> bool:
    """Whether a part's title names the acceptance criteria."""
    cleaned = title.strip().strip("*_:").strip()
    return _TITLE.fullmatch(cleaned) is not None


def _section_end(lines: list[str], start: int, level: int) -> int:
    """The index after the last line of the section whose title is at `start`."""
    fenced, seen_item = False, False
    for index in range(start + 1, len(lines)):
        line = lines[index]
        if _FENCE.match(line):
            fenced = not fenced
        if fenced:
            continue
        title = _title(line)
        if title is not None and (title[0] <= level or level == 7):
            return index
        if level == 7 and seen_item and line.strip() and not line.startswith((" ", "\t")):
            if not _LIST_ITEM.match(line) and not lines[index - 1].strip():
                return index  # a label's list ends at the first paragraph after it
        seen_item = seen_item or bool(_LIST_ITEM.match(line))
    return len(lines)


def split_criteria(description: str) -> tuple[str, str]:
    """The description without its acceptance-criteria section, and that section's text.

    Many teams write the criteria under a heading ("## Acceptance criteria", "h2." in wiki
    markup, already converted) or a label ("**Acceptance criteria:**") in the description
    rather than in a field. Without such a section the description comes back unchanged.
    """
    lines = description.splitlines()
    fenced = False
    for index, line in enumerate(lines):
        if _FENCE.match(line):
            fenced = not fenced
        title = None if fenced else _title(line)
        if title is None or not _is_criteria_title(title[1]):
            continue
        end = _section_end(lines, index, title[0])
        criteria = "\n".join(lines[index + 1 : end]).strip()
        if not criteria:
            return description, ""
        rest = "\n".join([*lines[:index], *lines[end:]])
        return re.sub(r"\n{3,}", "\n\n", rest).strip(), criteria
    return description, ""
