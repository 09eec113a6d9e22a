"""Discord webhooks: execute (post a message) and get, with Discord's validation errors."""

from typing import Any

from fastapi import APIRouter, Request, Response

from emulators.state import EmulatorError, EmulatorState, now

MAX_CONTENT = 2000
MAX_EMBEDS = 10
# Discord's limits on embed text; all the text of a message's embeds adds up to 6000 at most.
EMBED_LIMITS = {"title": 256, "description": 4096}
FIELD_LIMITS = {"name": 256, "value": 1024}
MAX_FIELDS = 25
MAX_FOOTER = 2048
MAX_EMBED_TEXT = 6000


def discord_error(status_code: int, message: str, code: int, **extra: Any) -> EmulatorError:
    """An error with Discord's body shape."""
    return EmulatorError(status_code, {"message": message, "code": code, **extra})


def _too_long(field: str, limit: int) -> EmulatorError:
    """Discord's 400 for a value over its limit; a dotted field nests as Discord's errors do."""
    error = {"code": "BASE_TYPE_MAX_LENGTH", "message": f"Must be {limit} or fewer in length."}
    errors: dict[str, Any] = {"_errors": [error]}
    for part in reversed(field.split(".")):
        errors = {part: errors}
    return discord_error(400, "Invalid Form Body", 50035, errors=errors)


def _check_embeds(embeds: Any) -> None:
    """Discord's 400 for embeds over its limits, naming the field as Discord does."""
    if not isinstance(embeds, list) or not all(isinstance(e, dict) for e in embeds):
        raise discord_error(400, "Invalid Form Body", 50035, errors={"embeds": {"_errors": []}})
    if len(embeds) > MAX_EMBEDS:
        raise _too_long("embeds", MAX_EMBEDS)
    total = 0
    for n, embed in enumerate(embeds):
        texts = [(f"embeds.{n}.{k}", str(embed.get(k) or ""), v) for k, v in EMBED_LIMITS.items()]
        fields = embed.get("fields") or []
        if len(fields) > MAX_FIELDS:
            raise _too_long(f"embeds.{n}.fields", MAX_FIELDS)
        for i, field in enumerate(fields):
            texts += [
                (f"embeds.{n}.fields.{i}.{k}", str(field.get(k) or ""), v)
                for k, v in FIELD_LIMITS.items()
            ]
        footer = str((embed.get("footer") or {}).get("text") or "")
        texts.append((f"embeds.{n}.footer.text", footer, MAX_FOOTER))
        for name, text, limit in texts:
            if len(text) > limit:
                raise _too_long(name, limit)
            total += len(text)
    if total > MAX_EMBED_TEXT:
        raise _too_long("embeds", MAX_EMBED_TEXT)


def create_discord_router(state: EmulatorState) -> APIRouter:
    """The Discord webhook routes over the shared state."""
    router = APIRouter(prefix="/api/webhooks/{webhook_id}/{token}", tags=["discord"])

    def find_webhook(webhook_id: str, token: str) -> dict[str, Any]:
        """A seeded webhook (its token is checked), else one made up for any other URL."""
        if not webhook_id.isdigit():
            raise discord_error(400, f'Value "{webhook_id}" is not snowflake.', 50035)
        hook = next((w for w in state.data["discord"]["webhooks"] if w["id"] == webhook_id), None)
        if hook is None:
            return {"id": webhook_id, "token": token, "name": "webhook", "channel_id": "2000"}
        if hook["token"] != token:
            raise discord_error(401, "Invalid Webhook Token", 50027)
        return hook

    @router.get("")
    def get_webhook(webhook_id: str, token: str) -> Any:
        hook = find_webhook(webhook_id, token)
        return {
            "id": hook["id"],
            "type": 1,
            "name": hook["name"],
            "channel_id": hook["channel_id"],
            "guild_id": hook.get("guild_id"),
            "token": hook["token"],
        }

    @router.post("")
    async def execute_webhook(
        webhook_id: str, token: str, request: Request, wait: bool = False
    ) -> Any:
        hook = find_webhook(webhook_id, token)
        try:
            payload = await request.json()
        except ValueError as err:
            raise discord_error(400, "The request body contains invalid JSON.", 50109) from err
        if not isinstance(payload, dict):
            raise discord_error(400, "Cannot send an empty message", 50006)
        content = payload.get("content") or ""
        embeds = payload.get("embeds") or []
        if not str(content).strip() and not embeds:
            raise discord_error(400, "Cannot send an empty message", 50006)
        if len(str(content)) > MAX_CONTENT:
            raise _too_long("content", MAX_CONTENT)
        _check_embeds(embeds)
        message = {
            "id": str(state.next_id("discord-message", 1_300_000_000_000_000_000)),
            "type": 0,
            "content": content,
            "embeds": embeds,
            "channel_id": hook["channel_id"],
            "webhook_id": hook["id"],
            "author": {
                "id": hook["id"],
                "username": payload.get("username") or hook["name"],
                "bot": True,
            },
            "timestamp": now().isoformat(),
            "tts": bool(payload.get("tts", False)),
        }
        state.data["discord"]["messages"].append(message)
        state.save()
        return message if wait else Response(status_code=204)

    return router
