"""Entries that are probably the same person."""

from contacts.model import Contact
from contacts.phone import normalise


def same_person(first: Contact, second: Contact) -> bool:
    """Same name ignoring case, or a shared email or phone number."""
    if first.name.lower() == second.name.lower():
        return True
    if set(first.emails) & set(second.emails):
        return True
    return bool({normalise(p) for p in first.phones} & {normalise(p) for p in second.phones})
