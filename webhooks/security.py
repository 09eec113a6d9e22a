"""Webhook signatures: the secret the app checks them with, and the check on the raw body."""

import hashlib
import hmac

from config.webhooks import WebhookSettings

UNSIGNED_SETTING = "TICKETSMITH_WEBHOOK_ALLOW_UNSIGNED"
MAKE_ONE = 'python -c "import secrets; print(secrets.token_hex(32))"'
MISSING = (
    "TICKETSMITH_WEBHOOK_SECRET is not set, and the webhook app takes no unsigned deliveries: "
    f"make one with `{MAKE_ONE}`, set it here and as the webhook secret in Jira and GitHub "
    f"(or set {UNSIGNED_SETTING}=true for a local experiment)"
)
BOTH = (
    f"TICKETSMITH_WEBHOOK_SECRET and {UNSIGNED_SETTING}=true are both set: unset "
    f"{UNSIGNED_SETTING} to check signatures, or the secret to take unsigned deliveries"
)


class WebhookSecretError(ValueError):
    """The settings give the webhook app no safe way to check deliveries; says what to set."""


def webhook_secret(settings: WebhookSettings) -> str | None:
    """The secret deliveries must be signed with; None only when unsigned ones are allowed
    explicitly. Raises WebhookSecretError when neither is set, or both are."""
    secret = settings.webhook_secret.get_secret_value().strip() if settings.webhook_secret else ""
    if secret and settings.webhook_allow_unsigned:
        raise WebhookSecretError(BOTH)
    if secret:
        return secret
    if settings.webhook_allow_unsigned:
        return None
    raise WebhookSecretError(MISSING)


def expected_signature(secret: str, body: bytes) -> str:
    """The `sha256=<hex>` HMAC that GitHub and Jira (secret-based webhooks) send."""
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def signature_valid(secret: str | None, body: bytes, header: str | None) -> bool:
    """Whether the header carries the body's HMAC; any delivery passes when `secret` is None,
    which `webhook_secret` allows only with TICKETSMITH_WEBHOOK_ALLOW_UNSIGNED."""
    if secret is None:
        return True
    if not header:
        return False
    return hmac.compare_digest(expected_signature(secret, body), header.strip())
