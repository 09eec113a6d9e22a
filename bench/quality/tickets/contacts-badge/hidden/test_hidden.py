from contacts.avatar import badge, initials
from contacts.model import Contact


def test_every_part_of_a_hyphenated_name_has_its_letter():
    assert initials("Mary-Jane Watson") == "MJW"
    assert initials("Jean-Luc Picard") == "JLP"


def test_plain_names_are_unchanged():
    assert initials("Ada Lovelace") == "AL"
    assert initials("Cher") == "C"
    assert initials("ada  lovelace") == "AL"


def test_the_badge_holds_at_most_three_letters():
    assert initials("Anna Maria Lopez-Garcia") == "AML"


def test_the_badge_uses_them():
    assert badge(Contact("Mary-Jane Watson"))["text"] == "MJW"
