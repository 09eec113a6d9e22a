import pytest

from calc.operations import add, divide, multiply, subtract


def test_add() -> None:
    assert add(2, 3) == 5


def test_subtract() -> None:
    assert subtract(2, 3) == -1


def test_multiply() -> None:
    assert multiply(4, 2.5) == 10


def test_divide() -> None:
    assert divide(7, 2) == 3.5


def test_divide_by_zero() -> None:
    with pytest.raises(ValueError, match="cannot divide by zero"):
        divide(1, 0)
