from __future__ import annotations

import typing as t

import pytest

from markupsafe import escape
from markupsafe import escape_silent
from markupsafe import Markup
from markupsafe import soft_str


def test_format_map() -> None:
    result = Markup("<em>{value}</em>").format_map({"value": "<value>"})
    assert result == "<em>&lt;value&gt;</em>"
