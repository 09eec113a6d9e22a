"""Discord client: messages to a channel through its webhook URL."""

from typing import Any

import httpx

from integrations.http import ServiceClient, build_http_client, raise_for_status

SERVICE = "Discord"
MAX_CONTENT = 2000


def trim(content: str, limit: int = MAX_CONTENT) -> str:
    """Content cut to Discord's limit, marked with an ellipsis when cut."""
    return content if len(content) <= limit else content[: limit - 1] + "…"


class DiscordClient(ServiceClient):
    """Sends webhook messages; the webhook URL (a secret) is given per call."""

    def __init__(self, transport: httpx.AsyncBaseTransport | None = None) -> None:
        super().__init__(build_http_client("", transport=transport))

    async def send(
        self,
        webhook_url: str,
        content: str,
        embeds: list[dict[str, Any]] | None = None,
        username: str | None = None,
    ) -> None:
        """Post one message; mentions in it never ping anyone."""
        payload: dict[str, Any] = {"content": trim(content), "allowed_mentions": {"parse": []}}
        if embeds:
            payload["embeds"] = embeds
        if username:
            payload["username"] = username
        response = await self._http.post(webhook_url, json=payload)
        raise_for_status(SERVICE, response)
