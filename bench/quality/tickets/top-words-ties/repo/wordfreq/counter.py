"""Count words in text."""

import re
from collections import Counter

_WORD = re.compile(r"[A-Za-z']+")


def words(text: str) -> list[str]:
    """The words of `text`, in order."""
    return _WORD.findall(text)


def top_words(text: str, n: int) -> list[tuple[str, int]]:
    """The `n` most frequent words of `text` with their counts."""
    return Counter(words(text)).most_common(n)
