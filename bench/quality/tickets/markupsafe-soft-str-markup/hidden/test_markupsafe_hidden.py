from __future__ import annotations

import typing as t

import pytest

from markupsafe import escape
from markupsafe import escape_silent
from markupsafe import Markup
from markupsafe import soft_str


def test_soft_str() -> None:
    assert type(soft_str("")) is str  # noqa: E721
    assert type(soft_str(Markup())) is Markup  # noqa: E721
    assert type(soft_str(15)) is str  # noqa: E721
