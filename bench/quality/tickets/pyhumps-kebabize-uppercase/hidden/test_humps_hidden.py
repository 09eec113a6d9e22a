import pytest

import humps


def test_conditionals():
    assert humps.is_pascalcase("RedRobin")
    assert humps.is_snakecase("RedRobin") is False
    assert humps.is_camelcase("RedRobin") is False
    assert humps.is_kebabcase("RedRobin") is False

    assert humps.is_snakecase("ruby_tuesdays")
    assert humps.is_camelcase("ruby_tuesdays") is False
    assert humps.is_pascalcase("ruby_tuesdays") is False
    assert humps.is_kebabcase("ruby_tuesdays") is False

    assert humps.is_camelcase("jackInTheBox")
    assert humps.is_snakecase("jackInTheBox") is False
    assert humps.is_pascalcase("jackInTheBox") is False
    assert humps.is_kebabcase("jackInTheBox") is False

    assert humps.is_kebabcase("white-castle")
    assert humps.is_snakecase("white-castle") is False
    assert humps.is_camelcase("white-castle") is False
    assert humps.is_pascalcase("white-castle") is False

    assert humps.is_camelcase("API")
    assert humps.is_pascalcase("API")
    assert humps.is_snakecase("API")
    assert humps.is_kebabcase("API")

    # Fixed issue #128
    assert humps.is_snakecase("whatever_10")
    assert humps.is_camelcase("whatever_10") is False
    assert humps.is_pascalcase("whatever_10") is False
    assert humps.is_kebabcase("whatever_10") is False


def test_upper():
    assert humps.camelize("API") == "API"
    assert humps.decamelize("API") == "API"
    assert humps.pascalize("API") == "API"
    assert humps.depascalize("API") == "API"
    assert humps.kebabize("API") == "API"
    assert humps.dekebabize("API") == "API"
