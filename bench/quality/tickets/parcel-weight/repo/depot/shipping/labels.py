"""The lines printed on a parcel's shipping label."""

from depot.shipping.parcel import Parcel
from depot.shipping.weights import chargeable_kg


def dimensions(parcel: Parcel) -> str:
    """The parcel's size as couriers write it: `60 x 40 x 40 cm`."""
    sides = (parcel.length_cm, parcel.width_cm, parcel.height_cm)
    return " x ".join(f"{side:g}" for side in sides) + " cm"


def label_lines(parcel: Parcel, order: str) -> list[str]:
    """The label's lines: the order, the size and the weight charged."""
    return [f"Order {order}", dimensions(parcel), f"{chargeable_kg(parcel):.1f} kg"]
