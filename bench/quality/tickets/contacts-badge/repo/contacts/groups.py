"""Groups of contacts (family, work, ...)."""

from contacts.model import Contact


def members(contacts: list[Contact], group: str) -> list[Contact]:
    """The contacts in a group."""
    return [c for c in contacts if group in c.groups]


def all_groups(contacts: list[Contact]) -> list[str]:
    """Every group any contact is in, sorted."""
    return sorted(set().union(*(c.groups for c in contacts)))
