"""The table of what ticketsmith says on Jira, Discord and GitHub (docs/using/integrations.md), read
row by row, and each row checked against the texts a test saw posted."""

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from config import ROOT

TABLE_FILE = ROOT / "docs" / "using" / "integrations.md"
HEADING = "## What ticketsmith says, and where"
QUOTED = re.compile(r'"([^"]+)"')
MOVED = re.compile(r"moved to \*([^*]+)\*")
PLACEHOLDER = re.compile(r"\{[^{}]+\}")
NAME = re.compile(r"^\*\*([^*]+)\*\*")


@dataclass(frozen=True)
class Row:
    """One event (its bold name, then what it is) and what it posts where (markdown cells)."""

    event: str
    jira: str
    discord: str
    github: str


@cache
def rows() -> dict[str, Row]:
    """The table's rows by the event's name."""
    text = TABLE_FILE.read_text(encoding="utf-8")
    section = text.split(HEADING, 1)[1].split("\n## ", 1)[0]
    found = {}
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 4 or cells[0] in ("event", "---"):
            continue
        name = NAME.match(cells[0])
        assert name, f"a row of the table in {TABLE_FILE.name} has no **name**: {line}"
        found[name.group(1)] = Row(*cells)
    return found


def said(fragment: str) -> re.Pattern[str]:
    """A quoted fragment as a pattern: its text as written, any text where it has `{...}`."""
    parts = PLACEHOLDER.split(fragment)
    return re.compile(".+?".join(re.escape(part) for part in parts), re.DOTALL)


def check_row(
    event: str,
    *,
    jira: Sequence[str] = (),
    discord: Sequence[str] = (),
    github: Sequence[str] = (),
    moved: Sequence[str] = (),
) -> None:
    """Every text the row quotes was posted where it says, and the issue moved where it says."""
    row = rows()[event]
    for channel, cell, texts in (
        ("Jira", row.jira, jira),
        ("Discord", row.discord, discord),
        ("GitHub", row.github, github),
    ):
        for fragment in QUOTED.findall(cell):
            pattern = said(fragment)
            assert any(pattern.search(text) for text in texts), (
                f"{event!r}: nothing on {channel} says {fragment!r}; it got {texts}"
            )
    for status in MOVED.findall(row.jira):
        wanted = said(status)
        assert any(wanted.fullmatch(where) for where in moved), (
            f"{event!r}: the issue never moved to {status}; it moved to {moved}"
        )
