"""Phone numbers as people type them and as the app stores them."""


def normalise(number: str) -> str:
    """Digits only, with a leading + kept: `+44 (0)20 7946-0958` as `+4402079460958`."""
    digits = "".join(ch for ch in number if ch.isdigit())
    return ("+" + digits) if number.strip().startswith("+") else digits
