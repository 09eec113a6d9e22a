"""The codec server: lets the Temporal Web UI and CLI read encrypted and stored payloads.

It decrypts with our keys (when encryption is on) and replaces references to the payload store
with the payloads they name, so the history shows large payloads whole.

`uvicorn --factory encryption.server:create_app --port 8081`; point the Web UI at it
(`TEMPORAL_CODEC_ENDPOINT`, or `temporal server start-dev --ui-codec-endpoint`).
Anyone who can reach it can read ticket text: serve it only where the Web UI's users are.
"""

from collections.abc import Awaitable, Callable, Sequence

from fastapi import FastAPI, Request
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import JSONResponse, Response
from google.protobuf import json_format
from google.protobuf.message import DecodeError
from temporalio.api.common.v1 import Payload, Payloads

from config import Settings, get_settings
from encryption.codec import EncryptionCodec, EncryptionKeyError, parse_keys
from encryption.store import FilePayloadStore, PayloadStoreError, resolve_references

Transform = Callable[[Sequence[Payload]], Awaitable[list[Payload]]]


def cors_origins(settings: Settings) -> list[str]:
    """The browser origins allowed to call the codec: the setting, else the Web UI's own."""
    configured = [o.strip().rstrip("/") for o in settings.codec_cors_origins.split(",")]
    if any(configured):
        return [o for o in configured if o]
    ui = settings.temporal_ui_url.rstrip("/")
    twins = (("//127.0.0.1:", "//localhost:"), ("//localhost:", "//127.0.0.1:"))
    return [ui, *(ui.replace(a, b) for a, b in twins if a in ui)]


def create_app(settings: Settings | None = None) -> FastAPI:
    """The codec app; without encryption keys it only resolves payload store references."""
    settings = settings or get_settings()
    keys = settings.encryption_keys
    codec = EncryptionCodec(parse_keys(keys.get_secret_value())) if keys else None
    store = FilePayloadStore(settings.payload_store_path)

    async def encode(payloads: Sequence[Payload]) -> list[Payload]:
        return await codec.encode(payloads) if codec else list(payloads)

    async def decode(payloads: Sequence[Payload]) -> list[Payload]:
        resolved = await resolve_references(store, payloads)
        return await codec.decode(resolved) if codec else resolved

    app = FastAPI(title="ticketsmith codec server")
    app.add_middleware(
        CORSMiddleware,
        allow_origins=cors_origins(settings),
        allow_methods=["POST"],
        allow_headers=["content-type", "x-namespace", "authorization"],
        allow_credentials=True,
    )

    async def apply(request: Request, transform: Transform) -> Response:
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
