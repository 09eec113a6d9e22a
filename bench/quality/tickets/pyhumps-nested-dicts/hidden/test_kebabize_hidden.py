"""
Test kebabization.
"""
import pytest

import humps


def test_kebabize_dict_list():
    actual = humps.kebabize(
        {
            "videos": [
                {
                    "fallback_url": "https://media.io/video",
                    "scrubber_Media_Url": "https://media.io/video",
                    "dash_Url": "https://media.io/video",
                }
            ],
            "images": [
                {
                    "fallback_url": "https://media.io/image",
                    "scrubber_Media_Url": "https://media.io/image",
                    "url": "https://media.io/image",
                }
            ],
            "other": [
                {
                    "_fallback_url": "https://media.io/image",
                    "__scrubber_Media___Url_": "https://media.io/image",
                    "_url__": "https://media.io/image",
                },
                {
                    "API": "test_upper",
                    "_API_": "test_upper",
                    "__API__": "test_upper",
                    "APIResponse": "test_acronym",
                    "_APIResponse_": "test_acronym",
                    "__APIResponse__": "test_acronym",
                },
            ],
        }
    )
    expected = {
        "videos": [
            {
                "fallback-url": "https://media.io/video",
                "scrubber-Media-Url": "https://media.io/video",
                "dash-Url": "https://media.io/video",
            }
        ],
        "images": [
            {
                "fallback-url": "https://media.io/image",
                "scrubber-Media-Url": "https://media.io/image",
                "url": "https://media.io/image",
            }
        ],
        "other": [
            {
                "_fallback-url": "https://media.io/image",
                "__scrubber-Media-Url_": "https://media.io/image",
                "_url__": "https://media.io/image",
            },
            {
                "API": "test_upper",
                "_API_": "test_upper",
                "__API__": "test_upper",
                "api-response": "test_acronym",
                "_api-response_": "test_acronym",
                "__api-response__": "test_acronym",
            },
        ],
    }
    assert actual == expected
