"""Finding contacts by what the user types."""

from contacts.model import Contact


def matches(contact: Contact, query: str) -> bool:
    """Whether the name or an email contains the query, ignoring case."""
    query = query.lower()
    return query in contact.name.lower() or any(query in e.lower() for e in contact.emails)


def search(contacts: list[Contact], query: str) -> list[Contact]:
    """The contacts that match, in order."""
    return [c for c in contacts if matches(c, query)]
