"""The address book saved as JSON."""

import json
from pathlib import Path

from contacts.model import Contact


def save(contacts: list[Contact], path: Path) -> None:
    """Write the contacts to `path`."""
    data = [{**vars(c), "groups": sorted(c.groups)} for c in contacts]
    path.write_text(json.dumps(data, indent=2))


def load(path: Path) -> list[Contact]:
    """The contacts saved at `path`."""
    return [Contact(**{**d, "groups": set(d["groups"])}) for d in json.loads(path.read_text())]
