"""A contact and its details."""

from dataclasses import dataclass, field


@dataclass
class Contact:
    """One person in the address book."""

    name: str
    emails: list[str] = field(default_factory=list)
    phones: list[str] = field(default_factory=list)
    birthday: str = ""  # YYYY-MM-DD, or "" when unknown
    groups: set[str] = field(default_factory=set)
