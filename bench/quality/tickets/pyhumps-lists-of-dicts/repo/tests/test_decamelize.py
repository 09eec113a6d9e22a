"""
Test decamelization.
"""
import pytest

import humps


@pytest.mark.parametrize(
    "input_str, expected_output",
    [
        ("symbol", "symbol"),
        ("lastPrice", "last_price"),
        ("changePct", "change_pct"),
        ("impliedVolatility", "implied_volatility"),
        ("_symbol", "_symbol"),
        ("changePct_", "change_pct_"),
        ("_lastPrice__", "_last_price__"),
        ("__impliedVolatility_", "__implied_volatility_"),
        ("API", "API"),
        ("_API_", "_API_"),
        ("__API__", "__API__"),
        ("APIResponse", "api_response"),
        ("_APIResponse_", "_api_response_"),
        ("__APIResponse__", "__api_response__"),
        # Fixed issue #2. 2021-05-01
        ("_itemID", "_item_id"),
        # Fixed issue #4. 2021-05-01
        ("memMB", "mem_mb"),
        # Fixed issue #127. 2021-09-13
        ("sizeX", "size_x"),
        # Fixed issue #168. 2021-09-13
        ("aB", "a_b"),
        # Fixed issue #201. 2021-10-12
        ("testNTest", "test_n_test"),
    ],
)
def test_decamelize(input_str, expected_output):
    """
    :param input_str: String that will be transformed.
    :param expected_output: The expected transformation.
    """
    output = humps.decamelize(input_str)
    assert output == expected_output, "{} != {}".format(
        output, expected_output
    )
