"""Convert temperatures between scales."""

_TO_KELVIN = {
    "C": lambda v: v + 273.15,
    "F": lambda v: (v - 32) * 5 / 9 + 273.15,
    "K": lambda v: v,
}
_FROM_KELVIN = {
    "C": lambda k: k - 273.15,
    "F": lambda k: (k - 273.15) * 9 / 5 + 32,
    "K": lambda k: k,
}


def convert(value: float, source: str, target: str) -> float:
    """`value` in unit `source` ("C", "F" or "K") expressed in unit `target`."""
    if source not in _TO_KELVIN or target not in _TO_KELVIN:
        raise ValueError(f"unknown unit: {source} or {target}")
    kelvin = _TO_KELVIN[source](value)
    if kelvin < -1e-9:
        raise ValueError("below absolute zero")
    if source == target:
        return value
    return _FROM_KELVIN[target](kelvin)
