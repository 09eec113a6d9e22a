"""A sensor's reading."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Reading:
    """What one sensor measured; `humidity` in percent, None from gateways that send none."""

    sensor: str
    celsius: float
    humidity: float | None = None
