"""
Test dekabization.
"""
import pytest

import humps


@pytest.mark.parametrize(
    "input_str, expected_output",
    [
        ("symbol", "symbol"),
        ("last-price", "last_price"),
        ("Change-Pct", "Change_Pct"),
        ("implied-Volatility", "implied_Volatility"),
        ("_symbol", "_symbol"),
        ("change-pct_", "change_pct_"),
        ("_last-price__", "_last_price__"),
        ("__implied-volatility_", "__implied_volatility_"),
        ("API", "API"),
        ("_API_", "_API_"),
        ("__API__", "__API__"),
        ("API-Response", "API_Response"),
        ("_API-Response_", "_API_Response_"),
        ("__API-Response__", "__API_Response__"),
        ("12345", "12345"),
    ],
)
def test_dekebabize(input_str, expected_output):
    """
    :param input_str: String that will be transformed.
    :param expected_output: The expected transformation.
    """
    output = humps.dekebabize(input_str)
    assert output == expected_output, "{} != {}".format(
        output, expected_output
    )
