import pytest

import humps


def test_numeric():
    assert humps.camelize(1234) == 1234
    assert humps.decamelize(123) == 123
    assert humps.pascalize(123) == 123
    assert humps.kebabize(123) == 123
