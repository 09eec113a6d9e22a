from climate.parse import parse_line, parse_log
from climate.readings import Reading
from climate.report import describe, summary


def test_parse_line():
    assert parse_line("kitchen,21.5\n") == Reading("kitchen", 21.5)


def test_parse_log_skips_blank_lines():
    assert parse_log("kitchen,21.5\n\nhall,19\n") == [Reading("kitchen", 21.5), Reading("hall", 19.0)]


def test_report():
    assert describe(Reading("kitchen", 21.5)) == "kitchen: 21.5 °C"
    assert summary([Reading("a", 1.0), Reading("b", 2.25)]) == "a: 1.0 °C\nb: 2.2 °C"
