"""Parcel weights: what the scale says and what a courier charges for."""

import math

from depot.core.units import grams_to_kg
from depot.shipping.parcel import Parcel

STEP_KG = 0.5


def round_up(kg: float, step: float = STEP_KG) -> float:
    """A weight rounded up to the next step: couriers bill whole steps."""
    return math.ceil(round(kg / step, 6)) * step


def gross_kg(parcel: Parcel) -> float:
    """The parcel's weight with its box, in kilograms."""
    return grams_to_kg(parcel.content_g + parcel.box_g)


def chargeable_kg(parcel: Parcel) -> float:
    """The weight the courier charges for, as printed on the label."""
    return round_up(gross_kg(parcel))
