"""A parcel as the packing station measures it."""

from dataclasses import dataclass

DEFAULT_BOX_G = 0.0


@dataclass(frozen=True)
class Parcel:
    """A packed box: outer size in centimetres, contents and the box itself in grams."""

    length_cm: float
    width_cm: float
    height_cm: float
    content_g: float
    box_g: float = DEFAULT_BOX_G

    def __post_init__(self) -> None:
        sizes = (self.length_cm, self.width_cm, self.height_cm)
        if min(sizes) <= 0:
            raise ValueError(f"a parcel's sides must be positive centimetres, got {sizes}")
        if self.content_g < 0 or self.box_g < 0:
            raise ValueError("a parcel's weights must not be negative grams")
