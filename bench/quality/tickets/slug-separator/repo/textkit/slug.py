"""Turn titles into URL slugs."""

import re

_NOT_WORD = re.compile(r"[^a-z0-9]+")


def slugify(text: str) -> str:
    """Lower-case words of `text` joined by hyphens."""
    words = _NOT_WORD.split(text.lower())
    return "-".join(word for word in words if word)
