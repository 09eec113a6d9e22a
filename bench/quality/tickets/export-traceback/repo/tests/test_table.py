from tabular.table import column_widths, render


def test_widths():
    assert column_widths([["name", "qty"], ["apples", "3"]]) == [6, 3]


def test_render():
    assert render([["name", "qty"], ["apples", "3"]]) == "name    qty\napples  3"
