import pytest

from billing import invoice
from billing.invoice import tax, total


def test_custom_rate():
    assert total([100.0], rate=0.1) == 110.0
    assert tax([100.0], rate=0.1) == 10.0


def test_default_rate():
    assert tax([100.0]) == 20.0
    assert total([50.0, 50.0]) == 120.0


def test_zero_rate():
    assert total([10.0], rate=0) == 10.0


def test_negative_rate():
    with pytest.raises(ValueError):
        total([10.0], rate=-0.1)


def test_constant():
    assert invoice.DEFAULT_RATE == 0.2
