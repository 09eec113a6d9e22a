"""The end-of-day manifest handed to each courier's driver."""

from depot.shipping.parcel import Parcel
from depot.shipping.weights import gross_kg


def manifest_totals(parcels: list[Parcel]) -> dict[str, float]:
    """How many parcels, and their gross weight in kilograms, for the driver's sheet."""
    return {"parcels": len(parcels), "gross_kg": round(sum(gross_kg(p) for p in parcels), 3)}
