"""
Test pascalizing.
"""
import pytest

import humps


@pytest.mark.parametrize(
    "input_str, expected_output",
    [
        ("fallback_url", "FallbackUrl"),
        ("scrubber_media_url", "ScrubberMediaUrl"),
        ("dash_url", "DashUrl"),
        ("_fallback_url", "_FallbackUrl"),
        ("__scrubber_media___url_", "__ScrubberMediaUrl_"),
        ("_url__", "_Url__"),
        ("API", "API"),
        ("_API_", "_API_"),
        ("__API__", "__API__"),
        ("APIResponse", "APIResponse"),
        ("_APIResponse_", "_APIResponse_"),
        ("__APIResponse__", "__APIResponse__"),
        # Fixed issue # 256
        ("", ""),
        (None, ""),
    ],
)
def test_pascalize(input_str, expected_output):
    """
    :param input_str: String that will be transformed.
    :param expected_output: The expected transformation.
    """
    output = humps.pascalize(input_str)
    assert output == expected_output, "{} != {}".format(
        output, expected_output
    )
