from climate.parse import parse_line, parse_log
from climate.readings import Reading
from climate.report import describe, summary


def test_a_reading_has_an_optional_humidity():
    assert Reading("kitchen", 21.5).humidity is None
    assert Reading("kitchen", 21.5, humidity=40.0).humidity == 40.0


def test_a_line_with_humidity():
    assert parse_line("kitchen,21.5,40") == Reading("kitchen", 21.5, humidity=40.0)


def test_a_line_without_humidity():
    assert parse_line("hall, 19.0").humidity is None


def test_a_log_of_old_and_new_gateways():
    readings = parse_log("kitchen,21.5,40\nhall,19\n")
    assert [r.humidity for r in readings] == [40.0, None]


def test_the_dashboard_shows_humidity():
    assert describe(Reading("kitchen", 21.5, humidity=40.0)) == "kitchen: 21.5 °C, 40 % humidity"
    assert describe(Reading("hall", 19.0)) == "hall: 19.0 °C"
    lines = summary([Reading("a", 1.0, humidity=55.4), Reading("b", 2.0)])
    assert lines == "a: 1.0 °C, 55 % humidity\nb: 2.0 °C"
