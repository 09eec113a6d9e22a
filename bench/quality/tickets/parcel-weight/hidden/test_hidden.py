from depot.shipping.labels import label_lines
from depot.shipping.manifests import manifest_totals
from depot.shipping.parcel import Parcel
from depot.shipping.weights import chargeable_kg


def test_a_big_light_box_is_charged_by_its_size():
    pillows = Parcel(60, 40, 40, content_g=1700, box_g=300)
    assert chargeable_kg(pillows) == 19.5
    assert label_lines(pillows, "P-3")[-1] == "19.5 kg"


def test_a_size_weight_on_a_half_kilo_is_not_rounded_further():
    assert chargeable_kg(Parcel(50, 40, 30, content_g=1000)) == 12.0


def test_small_heavy_parcels_are_charged_as_before():
    assert chargeable_kg(Parcel(20, 15, 10, content_g=3000, box_g=200)) == 3.5
    assert chargeable_kg(Parcel(30, 30, 30, content_g=9000)) == 9.0


def test_the_driver_still_gets_the_real_weight():
    pillows = Parcel(60, 40, 40, content_g=1700, box_g=300)
    assert manifest_totals([pillows]) == {"parcels": 1, "gross_kg": 2.0}
