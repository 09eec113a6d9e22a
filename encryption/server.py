"""The codec server: lets the Temporal Web UI and CLI read encrypted and stored payloads.

It decrypts with our keys (when encryption is on) and replaces references to the payload store
with the payloads they name, so the history shows large payloads whole.

`uvicorn --factory encryption.server:create_app --port 8081`; point the Web UI at it
(`TEMPORAL_CODEC_ENDPOINT`, or `temporal server start-dev --ui-codec-endpoint`).
Whoever it answers can read ticket text, so it answers callers on this machine and callers
with TICKETSMITH_ADMIN_TOKEN (`temporal ... --codec-auth "Bearer <token>"`), and browsers only
from the Web UI's origins.
"""

import logging
from collections.abc import Awaitable, Callable, Sequence

from fastapi import FastAPI, Request
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import JSONResponse, Response
from google.protobuf import json_format
from google.protobuf.message import DecodeError
from temporalio.api.common.v1 import Payload, Payloads

from access.admin import AdminAccess, AdminGuard
from config import CodecServerSettings, get_settings
from encryption.codec import EncryptionCodec, EncryptionKeyError, parse_keys
from encryption.store import FilePayloadStore, PayloadStoreError, resolve_references

Transform = Callable[[Sequence[Payload]], Awaitable[list[Payload]]]
log = logging.getLogger("ticketsmith.codec")


def cors_origins(settings: CodecServerSettings) -> list[str]:
    """The browser origins allowed to call the codec: the setting, else the Web UI's own.

    Raises ValueError for a wildcard: any page a user opens could then read their tickets.
    """
    configured = [o.strip().rstrip("/") for o in settings.codec_cors_origins.split(",")]
    for origin in configured:
        if origin and ("*" in origin or "://" not in origin):
            raise ValueError(
                f"TICKETSMITH_CODEC_CORS_ORIGINS names {origin!r}: list the Web UI's origins "
                "(scheme://host:port, comma-separated), never a wildcard"
            )
    if any(configured):
        return [o for o in configured if o]
    ui = settings.temporal_ui_url.rstrip("/")
    twins = (("//127.0.0.1:", "//localhost:"), ("//localhost:", "//127.0.0.1:"))
    return [ui, *(ui.replace(a, b) for a, b in twins if a in ui)]


def create_app(settings: CodecServerSettings | None = None) -> FastAPI:
    """The codec app; without encryption keys it only resolves payload store references."""
    settings = settings or get_settings(CodecServerSettings)
    keys = settings.encryption_keys
    codec = EncryptionCodec(parse_keys(keys.get_secret_value())) if keys else None
    store = FilePayloadStore(settings.payload_store_path)
    origins = cors_origins(settings)
    access = AdminAccess.from_settings(settings)
    if access.allow_anyone:
        log.warning("the codec server answers anyone: %s", access.start_notice(""))

    async def encode(payloads: Sequence[Payload]) -> list[Payload]:
        return await codec.encode(payloads) if codec else list(payloads)

    async def decode(payloads: Sequence[Payload]) -> list[Payload]:
        resolved = await resolve_references(store, payloads)
        return await codec.decode(resolved) if codec else resolved

    app = FastAPI(title="ticketsmith codec server")
    # Inside CORS, so that a browser is shown the refusal.
    app.add_middleware(AdminGuard, access=access, guarded=lambda _, path: path != "/healthz")
    app.add_middleware(
        CORSMiddleware,
        allow_origins=origins,
        allow_methods=["POST"],
        allow_headers=["content-type", "x-namespace", "authorization"],
        allow_credentials=True,
    )

    async def apply(request: Request, transform: Transform) -> Response:
        origin = request.headers.get("origin")
        if origin is not None and origin.rstrip("/") not in origins:
            # CORS only hides the answer from the page; the codec does not even give one.
            detail = (
                f"origin {origin} may not call the codec: list it in TICKETSMITH_CODEC_CORS_ORIGINS"
            )
            return JSONResponse({"detail": detail}, status_code=403)
        namespace = request.headers.get("x-namespace", settings.temporal_namespace)
        if namespace != settings.temporal_namespace:
            return JSONResponse({"detail": f"unknown namespace {namespace}"}, status_code=404)
        try:
            payloads = json_format.Parse(await request.body(), Payloads())
        except (json_format.ParseError, DecodeError, UnicodeDecodeError) as err:
            detail = f'body is not {{"payloads": [...]}} in proto JSON: {err}'
            return JSONResponse({"detail": detail}, status_code=400)
        try:
            result = Payloads(payloads=await transform(payloads.payloads))
        except (EncryptionKeyError, PayloadStoreError) as err:
            return JSONResponse({"detail": str(err)}, status_code=422)
        return Response(json_format.MessageToJson(result), media_type="application/json")

    @app.get("/healthz")
    async def healthz() -> dict[str, str]:
        return {"status": "ok", "key": codec.current_key_id if codec else "none"}

    @app.post("/encode")
    async def encode_route(request: Request) -> Response:
        return await apply(request, encode)

    @app.post("/decode")
    async def decode_route(request: Request) -> Response:
        return await apply(request, decode)

    return app
