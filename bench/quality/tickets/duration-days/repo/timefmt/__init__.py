"""Time formatting helpers."""
