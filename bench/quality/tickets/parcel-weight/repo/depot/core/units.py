"""Conversions between the units the depot's scales, rulers and couriers use."""


def grams_to_kg(grams: float) -> float:
    """Grams as kilograms."""
    return grams / 1000


def inches_to_cm(inches: float) -> float:
    """Inches as centimetres (some suppliers measure their boxes in inches)."""
    return round(inches * 2.54, 2)


def litres(length_cm: float, width_cm: float, height_cm: float) -> float:
    """The volume of a box in litres."""
    return length_cm * width_cm * height_cm / 1000
