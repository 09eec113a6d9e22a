"""A small module of the unit tests' own: byte sizes parsed from text, without kilobytes.

`parse_size` rejects "KB" on its line 14; it reads the values of its lines 6 and 7.
"""

BYTE_SIZES = '''"""Parse byte sizes such as 512B or 4MB."""

import re

# A number and the unit after it.
_SIZE = re.compile(r"(\\d+)(B|MB|GB)")
_FACTORS = {"B": 1, "MB": 1024**2, "GB": 1024**3}


def parse_size(text: str) -> int:
    """The number of bytes in a size like `512B` or `4MB`."""
    match = _SIZE.fullmatch(text.strip())
    if match is None:
        raise ValueError(f"cannot parse size {text!r}")
    return int(match.group(1)) * _FACTORS[match.group(2)]
'''
