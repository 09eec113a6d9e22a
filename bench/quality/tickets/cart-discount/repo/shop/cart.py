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

    def total(self) -> float:
        """The sum of price times quantity, rounded to cents."""
        return round(sum(line.price * line.quantity for line in self.lines), 2)
