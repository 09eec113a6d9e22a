"""A sensor's reading."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Reading:
    """What one sensor measured."""

    sensor: str
    celsius: float
