"""Readings from the gateway's log lines."""

from climate.readings import Reading


def parse_line(line: str) -> Reading:
    """`kitchen,21.5` as a Reading."""
    sensor, celsius = line.strip().split(",")
    return Reading(sensor=sensor.strip(), celsius=float(celsius))


def parse_log(text: str) -> list[Reading]:
    """The readings of every non-empty line of a log."""
    return [parse_line(line) for line in text.splitlines() if line.strip()]
