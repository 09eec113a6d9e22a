"""Arithmetic operations on numbers."""


def add(a: float, b: float) -> float:
    """Return the sum of a and b."""
    return a + b


def subtract(a: float, b: float) -> float:
    """Return a minus b."""
    return a - b


def multiply(a: float, b: float) -> float:
    """Return the product of a and b."""
    return a * b


def divide(a: float, b: float) -> float:
    """Return a divided by b; dividing by zero raises ValueError."""
    try:
        return a / b
    except ZeroDivisionError:
        raise ValueError("cannot divide by zero") from None
