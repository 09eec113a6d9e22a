"""HTTP for the MCP client: an error status answering one tool call fails that call only.

The SDK's streamable HTTP client ends the whole session when a POST is answered with an error
status; agents call tools concurrently in one session, so the transport turns such an answer
into the JSON-RPC error of that request (keeping the status), and the other calls go on.
"""

import json
import ssl
from functools import cache
from typing import Any

import httpx
from jsonschema import Draft202012Validator, ValidationError
from mcp import ClientSession
from mcp.shared.exceptions import McpError
from mcp.types import CallToolResult

HTTP_STATUS_CODE = -32001  # the JSON-RPC error code for "the HTTP layer answered an error"


class CallErrorTransport(httpx.AsyncBaseTransport):
    """Wraps a transport: a 4xx/5xx answer to a JSON-RPC request becomes its error response."""

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self._inner = inner

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self._inner.handle_async_request(request)
        if request.method != "POST" or response.status_code < 400 or response.status_code == 404:
            return response
        try:
            message = json.loads(request.content)
        except ValueError:
            return response
        if not isinstance(message, dict) or "id" not in message:
            return response
        await response.aread()
        await response.aclose()
        error = {
            "code": HTTP_STATUS_CODE,
            "message": f"HTTP {response.status_code} from the tool server",
            "data": {"http_status": response.status_code, "body": response.text[:300]},
        }
        body = {"jsonrpc": "2.0", "id": message["id"], "error": error}
        return httpx.Response(200, json=body, request=request)

    async def aclose(self) -> None:
        await self._inner.aclose()


def mcp_http_client(
    headers: dict[str, str] | None = None,
    timeout: httpx.Timeout | None = None,
    auth: httpx.Auth | None = None,
) -> httpx.AsyncClient:
    """The MCP client's httpx client (the SDK's factory signature) with CallErrorTransport."""
    return httpx.AsyncClient(
        headers=headers,
        timeout=timeout or httpx.Timeout(30, read=300),
        auth=auth,
        transport=CallErrorTransport(httpx.AsyncHTTPTransport(verify=tls_context())),
    )


@cache
def tls_context() -> ssl.SSLContext:
    """One TLS context for every client: building one reads the CA bundle, which is slow."""
    return ssl.create_default_context()


class CheckedSession(ClientSession):
    """A client session checking each structured tool result against a compiled validator.

    The SDK's own check validates the tool's schema against the meta-schema on every call,
    which costs more than the call itself; the tool's schema is checked once here instead.
    """

    _validators: dict[str, Draft202012Validator]

    async def _validate_tool_result(self, name: str, result: CallToolResult) -> None:
        validators = self.__dict__.setdefault("_validators", {})
        if name not in validators:
            if name not in self._tool_output_schemas:
                await self.list_tools()
            schema = self._tool_output_schemas.get(name)
            if schema is None:
                return
            Draft202012Validator.check_schema(schema)
            validators[name] = Draft202012Validator(schema)
        if result.structuredContent is None:
            raise RuntimeError(
                f"tool {name} has an output schema but returned no structured content"
            )
        try:
            validators[name].validate(result.structuredContent)
        except ValidationError as err:
            raise RuntimeError(
                f"tool {name} returned content its schema refuses: {err.message}"
            ) from err


def call_http_status(error: BaseException) -> int | None:
    """The HTTP status carried by a tool call's McpError, if it is one of ours."""
    if isinstance(error, McpError) and error.error.code == HTTP_STATUS_CODE:
        data: Any = error.error.data or {}
        status = data.get("http_status") if isinstance(data, dict) else None
        return int(status) if status is not None else None
    return None
