"""Readings as lines for the dashboard."""

from climate.readings import Reading


def describe(reading: Reading) -> str:
    """`kitchen: 21.5 °C`."""
    return f"{reading.sensor}: {reading.celsius:.1f} °C"


def summary(readings: list[Reading]) -> str:
    """One line a reading."""
    return "\n".join(describe(reading) for reading in readings)
