"""Shorten text for narrow columns."""


def truncate(text: str, width: int, ellipsis: str = "...") -> str:
    """`text` cut to at most `width` characters, ending with `ellipsis` when it was cut."""
    if width < len(ellipsis):
        raise ValueError(f"width {width} is smaller than the ellipsis {ellipsis!r}")
    if len(text) <= width:
        return text
    return text[: width - len(ellipsis)] + ellipsis
