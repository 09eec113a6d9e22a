from __future__ import annotations

import typing as t

import pytest

from markupsafe import escape
from markupsafe import escape_silent
from markupsafe import Markup
from markupsafe import soft_str


def test_escaping() -> None:
    assert escape("\"<>&'") == "&#34;&lt;&gt;&amp;&#39;"
    assert (
        Markup(
            "<!-- outer comment -->"
            "<em>Foo &amp; Bar"
            " <!-- inner comment about <em> -->\n "
            "</em>"
            "<!-- comment\nwith\nnewlines\n-->"
            "<meta content='tag\nwith\nnewlines'>"
        ).striptags()
        == "Foo & Bar"
    )
