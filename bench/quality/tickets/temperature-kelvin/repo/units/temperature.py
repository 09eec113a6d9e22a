"""Convert temperatures between scales."""


def convert(value: float, source: str, target: str) -> float:
    """`value` in unit `source` ("C" or "F") expressed in unit `target`."""
    if source not in ("C", "F") or target not in ("C", "F"):
        raise ValueError(f"unknown unit: {source} or {target}")
    if source == target:
        return value
    if source == "C":
        return value * 9 / 5 + 32
    return (value - 32) * 5 / 9
