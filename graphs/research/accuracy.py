"""Report accuracy: the share of the facts a question needs that the report states, cited right."""

import json
from pathlib import Path

from pydantic import BaseModel, Field

from graphs.research.sources import cite
from graphs.research.state import Report


class Fact(BaseModel):
    """A fact the answer needs: its words, and the sources that may back it."""

    text: str
    sources: list[str] = Field(min_length=1)


class FactSheet(BaseModel):
    """A question and the facts its answer needs."""

    question: str
    facts: list[Fact]

    @classmethod
    def from_file(cls, path: Path) -> "FactSheet":
        """A fact sheet from JSON."""
        return cls.model_validate(json.loads(path.read_text(encoding="utf-8")))


class Accuracy(BaseModel):
    """How many of the facts the report states with a right citation, and which it misses."""

    stated: int
    total: int
    missed: list[str]

    @property
    def share(self) -> float:
        """Stated facts over all facts."""
        return self.stated / self.total if self.total else 1.0


def claim_lines(report: Report) -> list[str]:
    """Every cited line of the report: the summary and each section's claims."""
    lines = [report.summary]
    for section in report.sections:
        lines += section.content.splitlines()
    return lines


def score(report: Report, sheet: FactSheet) -> Accuracy:
    """A fact counts when one line states its words and cites one of its sources."""
    lines = [line.casefold() for line in claim_lines(report)]
    missed = []
    for fact in sheet.facts:
        text = fact.text.casefold()
        cites = [cite(s).casefold() for s in fact.sources]
        if not any(text in line and any(c in line for c in cites) for line in lines):
            missed.append(fact.text)
    return Accuracy(stated=len(sheet.facts) - len(missed), total=len(sheet.facts), missed=missed)
