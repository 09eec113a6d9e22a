"""Typed values from strings."""


def parse_bool(text: str) -> bool:
    """True for "true", False otherwise."""
    return text.lower() == "true"


def parse_int(text: str, default: int = 0) -> int:
    """An int, or `default` for an empty string."""
    return int(text) if text.strip() else default
