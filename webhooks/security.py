"""Webhook signature checks on the raw body."""

import hashlib
import hmac


def expected_signature(secret: str, body: bytes) -> str:
    """The `sha256=<hex>` HMAC that GitHub and Jira (secret-based webhooks) send."""
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def signature_valid(secret: str | None, body: bytes, header: str | None) -> bool:
    """True when no secret is configured, or the header carries the body's HMAC."""
    if secret is None:
        return True
    if not header:
        return False
    return hmac.compare_digest(expected_signature(secret, body), header.strip())
