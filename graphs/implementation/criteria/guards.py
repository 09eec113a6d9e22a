"""Errors the change must keep or add beyond the criteria's own tests: a criterion that says
an error is still raised, and a sentence of the answers that states an error.

"Unknown units still raise ValueError" holds before the change, so a test of it passes on
the code as it is; kept beside the tests that fail there, it stops a revision that would
accept every unit. An error said only in the answers ("an upper-case unit is an error like
any other") is as easily broken by a revision that accepts it, and review passes it.
"""

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from graphs.implementation.criteria.examples import RAISING, is_builtin_exception
from graphs.implementation.criteria.ticket import ticket_criteria
from graphs.implementation.criteria.written_tests import EXISTING, RAISES, Stated

MAX_GUARDS = 2
# "is an error", "are errors too", "is rejected", "is invalid"
IS_ERROR = re.compile(
    r"\b(?:is|are)\s+(?:also\s+)?(?:an?\s+)?(?:errors?|rejected|invalid)\b", re.IGNORECASE
)
SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
WORD = re.compile(r"[a-z_][a-z0-9_]{3,}")
# The note a still-holding criterion is asked with: the prompt asks for tests that fail now.
HOLDS = "(This holds on the current code: its test passes now and must keep passing.)"


@dataclass(frozen=True)
class Guards:
    """The statements to test, what each states, and those that hold before the change."""

    stated: dict[str, Stated] = field(default_factory=dict)
    holding: frozenset[str] = frozenset()


def named_errors(texts: Sequence[str]) -> frozenset[str]:
    """The built-in exceptions the texts say are raised."""
    return frozenset(
        error for text in texts for error in RAISES.findall(text) if is_builtin_exception(error)
    )


def sentences(texts: Sequence[str]) -> list[str]:
    """The sentences of the texts, one line each."""
    found: list[str] = []
    for text in texts:
        found += [" ".join(s.split()) for s in SENTENCE_END.split(text) if s.strip()]
    return found


def restates(sentence: str, criteria: Sequence[str]) -> bool:
    """Whether every longer word of the sentence is in one of the criteria already."""
    words = set(WORD.findall(sentence.lower()))
    return any(words <= set(WORD.findall(c.lower())) for c in criteria)


def guard_checks(criteria_text: str | None, answers: Sequence[str]) -> Guards:
    """The criteria that say an error is still raised (without a call the examples test),
    then the answers' sentences that state an error (named, or the only one the ticket and
    the answers name) and that no criterion says already; at most `MAX_GUARDS`."""
    criteria = ticket_criteria(criteria_text)
    stated: dict[str, Stated] = {}
    for criterion in criteria:
        errors = named_errors([criterion])
        if errors and EXISTING.search(criterion) and not RAISING.search(criterion):
            stated[criterion] = Stated(errors=errors)
    holding = frozenset(stated)
    only = named_errors([*criteria, *answers])
    for sentence in sentences(answers):
        errors = named_errors([sentence]) or (only if IS_ERROR.search(sentence) else frozenset())
        if len(errors) == 1 and not restates(sentence, criteria):
            stated.setdefault(sentence, Stated(errors=errors))
    chosen = dict(list(stated.items())[:MAX_GUARDS])
    return Guards(stated=chosen, holding=holding & set(chosen))
