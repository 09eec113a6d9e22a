from tabular.table import column_widths, render


def test_a_longer_row_widens_the_table():
    assert column_widths([["a", "bb"], ["ccc", "d", "eeee"]]) == [3, 2, 4]


def test_extra_cells_are_rendered_in_their_own_column():
    assert render([["a", "bb"], ["ccc", "d", "eeee"]]) == "a    bb\nccc  d   eeee"


def test_short_rows_still_work():
    assert column_widths([["aa", "b", "c"], ["d"]]) == [2, 1, 1]
    assert render([["aa", "b", "c"], ["d"]]) == "aa  b  c\nd"


def test_no_rows():
    assert column_widths([]) == []
    assert render([]) == ""
