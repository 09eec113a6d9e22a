"""The couriers the depot ships with and which one takes a parcel."""

CARRIERS = {"swiftpost": ("DE", "AT", "NL"), "parcelway": ("FR", "BE", "ES", "IT")}
FALLBACK = "globalship"


def carrier_for(country: str) -> str:
    """The courier for a destination country code."""
    code = country.strip().upper()
    for carrier, countries in CARRIERS.items():
        if code in countries:
            return carrier
    return FALLBACK
