"""A contact's name as the list shows it."""

from contacts.model import Contact


def short_name(contact: Contact) -> str:
    """`Ada Lovelace` as `Ada L.`; a single name as it is."""
    first, *rest = contact.name.split()
    return f"{first} {rest[-1][0]}." if rest else first


def sort_key(contact: Contact) -> tuple[str, str]:
    """Sort by last name, then first name."""
    parts = contact.name.lower().split()
    return (parts[-1], parts[0])
