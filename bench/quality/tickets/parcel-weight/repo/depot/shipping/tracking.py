"""Tracking numbers and the links customers follow."""

import re

LINKS = {
    "swiftpost": "https://track.swiftpost.example/{number}",
    "parcelway": "https://parcelway.example/t/{number}",
    "globalship": "https://globalship.example/track?n={number}",
}
_NUMBER = re.compile(r"^[A-Z0-9]{10,22}$")


def valid_number(number: str) -> bool:
    """Whether a tracking number has the form every courier uses."""
    return bool(_NUMBER.match(number.strip().upper()))


def tracking_link(carrier: str, number: str) -> str:
    """The link to follow a parcel; unknown carriers get the fallback's."""
    template = LINKS.get(carrier, LINKS["globalship"])
    return template.format(number=number.strip().upper())
