import pytest

from depot.__main__ import main
from depot.billing.invoices import paid_invoices, total_amount_due
from depot.core.money import format_cents, to_cents
from depot.core.records import field_of
from depot.core.units import grams_to_kg, inches_to_cm, litres
from depot.inventory.stock import items_by_location, reserved_share
from depot.orders.status import cancelled_orders
from depot.shipping.carriers import carrier_for
from depot.shipping.labels import dimensions, label_lines
from depot.shipping.manifests import manifest_totals
from depot.shipping.parcel import Parcel
from depot.shipping.tracking import tracking_link, valid_number
from depot.shipping.weights import chargeable_kg, gross_kg, round_up


def test_records_read_numbers_forgivingly():
    assert field_of({"quantity": "3"}, "quantity") == 3.0
    assert field_of({"quantity": ""}, "quantity", 1) == 1
    assert field_of({}, "quantity") == 0


def test_area_functions():
    items = [
        {"id": "A", "status": "reserved", "location": "R1", "quantity": 2},
        {"id": "B", "status": "free", "location": "R2", "quantity": 5},
        {"id": "C", "status": "reserved", "location": "R1"},
    ]
    assert list(items_by_location(items)) == ["R1", "R2"]
    assert reserved_share(items) == 66.7
    assert reserved_share([]) == 0.0
    assert cancelled_orders([{"status": "cancelled"}, {"status": "open"}]) == [{"status": "cancelled"}]
    invoices = [{"status": "paid", "amount_due": "10.5"}, {"status": "open", "amount_due": 4}]
    assert total_amount_due(invoices) == 14.5 and len(paid_invoices(invoices)) == 1


def test_units_and_money():
    assert grams_to_kg(1500) == 1.5
    assert inches_to_cm(10) == 25.4
    assert litres(10, 10, 10) == 1.0
    assert to_cents("12.30") == 1230
    assert format_cents(-1230) == "-12.30 EUR"


def test_parcels_are_measured_in_positive_sizes():
    with pytest.raises(ValueError, match="positive centimetres"):
        Parcel(0, 10, 10, content_g=100)


def test_weights_round_up_to_half_kilos():
    assert round_up(3.2) == 3.5
    assert round_up(3.5) == 3.5
    small = Parcel(20, 15, 10, content_g=3000, box_g=200)
    assert gross_kg(small) == 3.2
    assert chargeable_kg(small) == 3.5


def test_labels_and_manifests():
    small = Parcel(20, 15, 10, content_g=3000, box_g=200)
    assert dimensions(small) == "20 x 15 x 10 cm"
    assert label_lines(small, "A-17") == ["Order A-17", "20 x 15 x 10 cm", "3.5 kg"]
    assert manifest_totals([small, small]) == {"parcels": 2, "gross_kg": 6.4}


def test_carriers_and_tracking():
    assert carrier_for(" de ") == "swiftpost"
    assert carrier_for("US") == "globalship"
    assert valid_number("ab12345678cd")
    assert tracking_link("parcelway", "ab12345678") == "https://parcelway.example/t/AB12345678"


def test_the_command_line_prints_a_label(capsys):
    assert main(["20", "15", "10", "3200"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "3.5 kg"
