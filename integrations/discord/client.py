"""Discord client: messages with embeds to a channel through its webhook URL."""

from collections.abc import Sequence
from datetime import datetime
from typing import Any

import httpx
from pydantic import BaseModel, Field

from integrations.http import ServiceClient, build_http_client, raise_for_status
from integrations.security.secrets import SecretFinder

SERVICE = "Discord"
MAX_CONTENT = 2000
MAX_EMBEDS = 10
# Discord's limits on embed text, by field; all the text of a message's embeds adds up to 6000.
LIMITS = {"title": 256, "description": 4096, "name": 256, "value": 1024, "footer": 2048}
MAX_FIELDS = 25
MAX_EMBED_TEXT = 6000


def trim(content: str, limit: int = MAX_CONTENT) -> str:
    """Content cut to Discord's limit, marked with an ellipsis when cut."""
    return content if len(content) <= limit else content[: limit - 1] + "…"


class EmbedField(BaseModel):
    """One name/value pair shown in an embed."""

    name: str
    value: str
    inline: bool = False


class Embed(BaseModel):
    """A rich block under a message: title linking to `url`, text, fields, colour, footer."""

    title: str | None = None
    description: str | None = None
    url: str | None = None
    color: int | None = Field(default=None, ge=0, le=0xFFFFFF)
    fields: list[EmbedField] = Field(default_factory=list)
    footer: str | None = None
    timestamp: datetime | None = None

    def to_discord(self, budget: int = MAX_EMBED_TEXT) -> dict[str, Any]:
        """The embed as Discord's JSON, its texts cut to Discord's limits and to `budget`."""
        out: dict[str, Any] = {}

        def fit(text: str, limit: int) -> str:
            """The text cut to its limit and to what is left of the budget ("" when none is)."""
            nonlocal budget
            cut = trim(text, min(limit, budget)) if budget > 0 else ""
            budget -= len(cut)
            return cut

        if self.title and (title := fit(self.title, LIMITS["title"])):
            out["title"] = title
        if self.description and (description := fit(self.description, LIMITS["description"])):
            out["description"] = description
        if self.url:
            out["url"] = self.url
        if self.color is not None:
            out["color"] = self.color
        fields = []
        for field in self.fields[:MAX_FIELDS]:
            if budget < len(field.name) + 1:  # a field needs its whole name and some value
                break
            name, value = fit(field.name, LIMITS["name"]), fit(field.value, LIMITS["value"])
            fields.append({"name": name, "value": value, "inline": field.inline})
        if fields:
            out["fields"] = fields
        if self.footer and (footer := fit(self.footer, LIMITS["footer"])):
            out["footer"] = {"text": footer}
        if self.timestamp:
            out["timestamp"] = self.timestamp.isoformat()
        return out


def embed_text_length(embed: dict[str, Any]) -> int:
    """How much of a message's embed text budget an embed uses."""
    fields = embed.get("fields") or []
    texts = [embed.get("title"), embed.get("description"), (embed.get("footer") or {}).get("text")]
    texts += [f.get(k) for f in fields for k in ("name", "value")]
    return sum(len(t) for t in texts if t)


def fit_embeds(embeds: Sequence[Embed | dict[str, Any]]) -> list[dict[str, Any]]:
    """At most ten embeds whose texts together stay within Discord's 6000 characters."""
    out: list[dict[str, Any]] = []
    budget = MAX_EMBED_TEXT
    for raw in embeds[:MAX_EMBEDS]:
        if budget <= 0:
            break
        embed = Embed.model_validate(raw).to_discord(budget)
        budget -= embed_text_length(embed)
        out.append(embed)
    return out


class DiscordClient(ServiceClient):
    """Sends webhook messages; the webhook URL (a secret) is given per call."""

    def __init__(
        self,
        transport: httpx.AsyncBaseTransport | None = None,
        secrets: SecretFinder | None = None,
    ) -> None:
        super().__init__(build_http_client("", transport=transport, secrets=secrets))

    async def send(
        self,
        webhook_url: str,
        content: str,
        embeds: Sequence[Embed | dict[str, Any]] | None = None,
        username: str | None = None,
    ) -> str:
        """Post one message and return its id; mentions in it never ping anyone."""
        payload: dict[str, Any] = {"content": trim(content), "allowed_mentions": {"parse": []}}
        if embeds:
            payload["embeds"] = fit_embeds(embeds)
        if username:
            payload["username"] = username
        response = await self._http.post(webhook_url, params={"wait": "true"}, json=payload)
        raise_for_status(SERVICE, response)
        return str(response.json()["id"])
