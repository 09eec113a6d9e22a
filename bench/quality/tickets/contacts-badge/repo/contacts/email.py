"""Email addresses."""


def is_valid(address: str) -> bool:
    """One @ with something on both sides and a dot in the domain."""
    local, at, domain = address.partition("@")
    return bool(local and at and "." in domain.strip(".")) and "@" not in domain


def domain_of(address: str) -> str:
    """The part after the @, lower-cased."""
    return address.rpartition("@")[2].lower()
