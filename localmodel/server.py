"""Running the local model server: its command line, its readiness, and the chat model for it."""

import os

import httpx

from config.models import ModelSettings
from localmodel.layout import MODEL_NAME, layout_for
from localmodel.provider import resolved_model_provider

LOCAL_MODEL_ALIAS = "local"


class LocalModelMissingError(Exception):
    """The local model is not installed; the message says how to install it."""


def server_url(settings: ModelSettings) -> str:
    """The local server's root (its `/health` and `/slots`)."""
    return f"http://{settings.local_model_host}:{settings.local_model_port}"


def base_url(settings: ModelSettings) -> str:
    """The OpenAI-compatible endpoint of the local server."""
    return f"{server_url(settings)}/v1"


def server_argv(settings: ModelSettings) -> list[str]:
    """The `llama-server` command line: its slots (one by default), each with the whole
    context, on all cores."""
    layout = layout_for(settings)
    binary = layout.server_binary
    if binary is None or not layout.model_ready():
        raise LocalModelMissingError(
            f"the local model is not installed in {layout.models_dir}; run `make local-model` "
            "(or choose another provider with TICKETSMITH_MODEL_PROVIDER)"
        )
    slots = settings.local_model_slots
    return [
        str(binary), "-m", str(layout.model_file),
        "--host", settings.local_model_host, "--port", str(settings.local_model_port),
        "-c", str(settings.local_model_context * slots), "-np", str(slots),
        "-t", str(os.cpu_count() or 2),
        "--jinja", "--alias", LOCAL_MODEL_ALIAS, "--no-webui",
    ]  # fmt: skip


def server_library_path(settings: ModelSettings) -> dict[str, str]:
    """The environment the server needs: its shared libraries sit beside it."""
    binary = layout_for(settings).server_binary
    if binary is None:
        return {}
    current = os.environ.get("LD_LIBRARY_PATH", "")
    return {"LD_LIBRARY_PATH": os.pathsep.join(p for p in (str(binary.parent), current) if p)}


async def server_ready(settings: ModelSettings) -> bool:
    """Whether the server has loaded the model and answers (`/health` is 503 while loading)."""
    url = f"{server_url(settings)}/health"
    try:
        async with httpx.AsyncClient(timeout=2) as client:
            return (await client.get(url)).status_code == 200
    except httpx.HTTPError:
        return False


def describe_model(settings: ModelSettings) -> str:
    """Which model the stack's worker uses, for people."""
    provider = resolved_model_provider(settings)
    if provider == "local":
        name = MODEL_NAME if settings.local_model_path is None else settings.local_model_path.name
        return f"local: {name} at {base_url(settings)}"
    if provider == "openai":
        return f"openai: {settings.openai_model} at {settings.openai_base_url or 'api.openai.com'}"
    return f"{provider} (no language model: it writes no code)"
