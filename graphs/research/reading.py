"""Plain reading helpers shared by the offline model and the scripted reader: words, sentences."""

import re

_WORD = re.compile(r"[a-z0-9][a-z0-9.-]*[a-z0-9]|[a-z0-9]")
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
STOP_WORDS = frozenset(
    "a an and are as at be by for from how in is it its of on or the to was what when which "
    "who why will with this that".split()
)


def words(text: str) -> set[str]:
    """The lower-cased content words of a text."""
    return {w for w in _WORD.findall(text.lower()) if w not in STOP_WORDS}


def sentences(text: str) -> list[str]:
    """The sentences and lines of a text, markdown heading marks removed."""
    parts = (p.strip().lstrip("#").strip() for p in _SENTENCE.split(text))
    return [p for p in parts if len(p) > 3]
