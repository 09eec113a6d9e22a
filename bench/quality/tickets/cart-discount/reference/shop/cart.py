"""A shopping cart."""

from dataclasses import dataclass, field


@dataclass
class Line:
    """One product in the cart."""

    name: str
    price: float
    quantity: int = 1


@dataclass
class Cart:
    """Lines of products."""

    lines: list[Line] = field(default_factory=list)

    def add(self, name: str, price: float, quantity: int = 1) -> None:
        """Add a line."""
        self.lines.append(Line(name, price, quantity))

    def total(self, discount: float = 0) -> float:
        """The sum of price times quantity less `discount` percent, rounded to cents."""
        if not 0 <= discount <= 100:
            raise ValueError(f"discount must be between 0 and 100, got {discount}")
        gross = sum(line.price * line.quantity for line in self.lines)
        return round(gross * (100 - discount) / 100, 2)
