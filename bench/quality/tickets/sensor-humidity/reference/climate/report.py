"""Readings as lines for the dashboard."""

from climate.readings import Reading


def describe(reading: Reading) -> str:
    """`kitchen: 21.5 °C`, and `, 40 % humidity` when the reading has it."""
    line = f"{reading.sensor}: {reading.celsius:.1f} °C"
    if reading.humidity is not None:
        line += f", {reading.humidity:.0f} % humidity"
    return line


def summary(readings: list[Reading]) -> str:
    """One line a reading."""
    return "\n".join(describe(reading) for reading in readings)
