"""Readings from the gateway's log lines."""

from climate.readings import Reading


def parse_line(line: str) -> Reading:
    """`kitchen,21.5` (or `kitchen,21.5,40` with humidity) as a Reading."""
    sensor, celsius, *rest = line.strip().split(",")
    humidity = float(rest[0]) if rest else None
    return Reading(sensor=sensor.strip(), celsius=float(celsius), humidity=humidity)


def parse_log(text: str) -> list[Reading]:
    """The readings of every non-empty line of a log."""
    return [parse_line(line) for line in text.splitlines() if line.strip()]
