"""A credential the scan found in a change, as the push activity reports it and the ticket's
status shows it (its own module: `starter.py status` imports it, and nothing heavier)."""

from pydantic import BaseModel


class SecretFinding(BaseModel):
    """What looks like a credential in a change: where and what kind, never the value."""

    path: str
    line: int
    kind: str
    own: bool = False  # one of the worker's own secret values: nothing lets it through
