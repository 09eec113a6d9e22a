"""A plan's risks without the questions the reporter's answers settled.

On DEMO-1 the local model's plan still listed among its risks a question refinement had asked
and the reporter had answered.
"""

import re

# Words that say something is open rather than what it is about.
FILLER = frozenset(
    "about after again also and any are ask asked ambiguous be been before being but by can "
    "clear clarify could decide decided does doesn for from has have how if in into is it its "
    "may might must not of on open or question should that the their then there this to "
    "unclear undecided unknown unspecified specified was we what when whether which while who "
    "will with would yet".split()
)
_WORD = re.compile(r"[a-z][a-z0-9_]*")
MIN_SHARED = 2
MIN_SIMILARITY = 0.5


def topic(text: str) -> set[str]:
    """The words of a text that say what it is about, lower-case, plurals as singulars."""
    words = (w for w in _WORD.findall(text.lower()) if len(w) > 2 and w not in FILLER)
    return {w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w for w in words}


def repeats(risk: str, question: str) -> bool:
    """Whether a risk is about what the question asked: the words they share are at least half
    of their words (Dice's coefficient), and two or more."""
    left, right = topic(risk), topic(question)
    shared = len(left & right)
    return shared >= MIN_SHARED and 2 * shared >= MIN_SIMILARITY * (len(left) + len(right))


def without_settled(risks: list[str], answered: list[str]) -> list[str]:
    """The risks that repeat no question the reporter answered."""
    return [r for r in risks if not any(repeats(r, question) for question in answered)]
