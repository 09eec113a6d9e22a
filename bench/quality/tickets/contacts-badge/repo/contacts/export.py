"""Exporting contacts as vCards."""

from contacts.model import Contact


def vcard(contact: Contact) -> str:
    """A contact as a vCard 3.0."""
    lines = ["BEGIN:VCARD", "VERSION:3.0", f"FN:{contact.name}"]
    lines += [f"EMAIL:{e}" for e in contact.emails]
    lines += [f"TEL:{p}" for p in contact.phones]
    if contact.birthday:
        lines.append(f"BDAY:{contact.birthday}")
    return "\r\n".join([*lines, "END:VCARD"])
