"""The name of a ticket's branch."""

import re
import unicodedata


def branch_name(key: str, summary: str) -> str:
    """The ticket branch: `ticketsmith/<KEY>-<slug of the summary>`."""
    safe_key = re.sub(r"[^A-Za-z0-9-]+", "-", key).strip("-") or "ticket"
    ascii_text = unicodedata.normalize("NFKD", summary).encode("ascii", "ignore").decode()
    slug = ""
    for word in re.findall(r"[a-z0-9]+", ascii_text.lower()):
        candidate = f"{slug}-{word}" if slug else word
        if len(candidate) > 40:
            slug = slug or word[:40]
            break
        slug = candidate
    return f"ticketsmith/{safe_key}-{slug}" if slug else f"ticketsmith/{safe_key}"
