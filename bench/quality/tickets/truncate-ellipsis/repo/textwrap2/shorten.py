"""Shorten text for narrow columns."""


def truncate(text: str, width: int) -> str:
    """`text` cut to `width` characters, with "..." when it was cut."""
    if len(text) <= width:
        return text
    return text[:width] + "..."
