"""The round badge beside each contact when there is no photo."""

import re

from contacts.model import Contact

COLOURS = ["#e57373", "#64b5f6", "#81c784", "#ffb74d", "#ba68c8"]
MAX_LETTERS = 3  # what fits in the badge


def initials(name: str) -> str:
    """The letters on the badge: the first letter of each name and of each part of a
    hyphenated name, upper-cased, at most three."""
    parts = [part for part in re.split(r"[\s-]+", name) if part]
    return "".join(part[0].upper() for part in parts)[:MAX_LETTERS]


def colour(contact: Contact) -> str:
    """The badge's colour, the same for a name every time."""
    return COLOURS[sum(map(ord, contact.name)) % len(COLOURS)]


def badge(contact: Contact) -> dict[str, str]:
    """What the app draws: the letters and the colour."""
    return {"text": initials(contact.name), "colour": colour(contact)}
