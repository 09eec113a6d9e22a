"""Merging two entries for the same person."""

from contacts.model import Contact


def merge(first: Contact, second: Contact) -> Contact:
    """One contact with the details of both; the first's name and birthday win."""
    return Contact(
        name=first.name,
        emails=first.emails + [e for e in second.emails if e not in first.emails],
        phones=first.phones + [p for p in second.phones if p not in first.phones],
        birthday=first.birthday or second.birthday,
        groups=first.groups | second.groups,
    )
