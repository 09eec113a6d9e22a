"""Settings of the webhook intake: where it listens and how deliveries are authenticated."""

from pydantic import SecretStr

from config.common import CommonSettings


class WebhookSettings(CommonSettings):
    """The webhook app's address and the secret deliveries are signed with."""

    webhook_host: str = "127.0.0.1"
    webhook_port: int = 8000
    # Jira and GitHub sign deliveries with it; the webhook app does not start without it.
    webhook_secret: SecretStr | None = None
    # Take deliveries without a signature (a local experiment): every answer says "unsigned",
    # and so does the status of every ticket they reach.
    webhook_allow_unsigned: bool = False
