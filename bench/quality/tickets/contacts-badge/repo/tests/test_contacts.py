from datetime import date

from contacts.avatar import badge, initials
from contacts.birthday import age, next_birthday
from contacts.display import short_name
from contacts.email import is_valid
from contacts.merge import merge
from contacts.model import Contact
from contacts.phone import normalise
from contacts.search import search


def test_badge():
    assert initials("Ada Lovelace") == "AL"
    assert badge(Contact("Ada Lovelace"))["text"] == "AL"


def test_short_name():
    assert short_name(Contact("Ada Lovelace")) == "Ada L."
    assert short_name(Contact("Cher")) == "Cher"


def test_search_and_merge():
    ada = Contact("Ada Lovelace", emails=["ada@example.org"])
    also = Contact("Ada Lovelace", emails=["ada@example.org", "al@example.com"], birthday="1815-12-10")
    assert search([ada, Contact("Bob")], "LOVE") == [ada]
    merged = merge(ada, also)
    assert merged.emails == ["ada@example.org", "al@example.com"]
    assert merged.birthday == "1815-12-10"


def test_details():
    assert normalise("+44 (0)20 7946-0958") == "+4402079460958"
    assert is_valid("ada@example.org") and not is_valid("ada@")
    assert next_birthday("2000-02-29", date(2025, 1, 1)) == date(2025, 3, 1)
    assert age("1990-06-15", date(2025, 6, 14)) == 34
