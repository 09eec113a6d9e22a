"""Count words in text."""

import re
from collections import Counter

_WORD = re.compile(r"[A-Za-z']+")


def words(text: str) -> list[str]:
    """The words of `text`, in order."""
    return _WORD.findall(text)


def top_words(text: str, n: int) -> list[tuple[str, int]]:
    """The `n` most frequent words of `text` (lower-cased) with their counts, ties by word."""
    counts = Counter(word.lower() for word in words(text))
    ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    return ranked[:n]
