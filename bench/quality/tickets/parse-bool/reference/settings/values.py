"""Typed values from strings."""

_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


def parse_bool(text: str) -> bool:
    """A boolean from its usual spellings; anything else is an error."""
    word = text.strip().lower()
    if word in _TRUE:
        return True
    if word in _FALSE:
        return False
    raise ValueError(f"not a boolean: {text!r}")


def parse_int(text: str, default: int = 0) -> int:
    """An int, or `default` for an empty string."""
    return int(text) if text.strip() else default
