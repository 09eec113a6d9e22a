"""Turn titles into URL slugs."""

import re

_NOT_WORD = re.compile(r"[^a-z0-9]+")


def slugify(text: str, separator: str = "-") -> str:
    """Lower-case words of `text` joined by `separator`."""
    words = _NOT_WORD.split(text.lower())
    return separator.join(word for word in words if word)
