"""The research bench's model: the scripted reader, the offline model, or a language model.

`local` reaches the local llama.cpp server the settings name (`TICKETSMITH_LOCAL_MODEL_*`):
one already answering there is used as it is (and left running); otherwise the bench starts
it from the models directory (`make local-model` builds it) and stops it at the end. `openai`
is any OpenAI-compatible server: `OPENAI_BASE_URL` (or `TICKETSMITH_OPENAI_BASE_URL`), the key
and `TICKETSMITH_OPENAI_MODEL`, as the worker reads them.
"""

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

from langchain_core.language_models import BaseChatModel

from config import Settings
from embedded.services import port_free
from graphs.models import make_chat_model
from graphs.offline import OfflineChatModel
from graphs.research.scripted import research_reader
from harness.processes import clean_env, kill, spawn, until
from localmodel.server import (
    LocalModelMissingError,
    describe_model,
    server_argv,
    server_library_path,
    server_ready,
)

MODELS = ("scripted", "offline", "local", "openai")
LANGUAGE_MODELS = ("local", "openai")
READY_TIMEOUT_S = 300  # loading the weights on a busy 2-core machine


class ModelUnavailableError(Exception):
    """The chosen model cannot be used; the message says why and what to do."""


@dataclass
class BenchModel:
    """The model the worker's agents use, and how to name it in the figures."""

    model: BaseChatModel
    description: str


@asynccontextmanager
async def bench_model(name: str, settings: Settings, logs: Path) -> AsyncIterator[BenchModel]:
    """The model by name; for `local`, with its server running while the bench runs."""
    if name == "scripted":
        yield BenchModel(research_reader(), "scripted reader (no language model)")
    elif name == "offline":
        yield BenchModel(OfflineChatModel(), "offline (no language model)")
    elif name == "openai":
        yield BenchModel(openai_model(settings), describe(settings, "openai"))
    elif name == "local":
        async with local_server(settings, logs) as how:
            model = make_chat_model("local", temperature=settings.openai_temperature)
            yield BenchModel(model, f"{describe(settings, 'local')} ({how})")
    else:
        raise ModelUnavailableError(f"unknown model {name!r}; choose one of {', '.join(MODELS)}")


def describe(settings: Settings, provider: str) -> str:
    """The settings' description of a provider's model."""
    return describe_model(settings.model_copy(update={"model_provider": provider}))


def openai_model(settings: Settings) -> BaseChatModel:
    """ChatOpenAI for the configured OpenAI-compatible server."""
    key = settings.openai_api_key.get_secret_value() if settings.openai_api_key else None
    try:
        return make_chat_model(
            "openai",
            api_key=key,
            base_url=settings.openai_base_url,
            model=settings.openai_model,
            temperature=settings.openai_temperature,
        )
    except ValueError as err:
        raise ModelUnavailableError(
            f"{err}: set OPENAI_BASE_URL to an OpenAI-compatible server (and "
            "TICKETSMITH_OPENAI_MODEL), or OPENAI_API_KEY for api.openai.com"
        ) from err


@asynccontextmanager
async def local_server(settings: Settings, logs: Path) -> AsyncIterator[str]:
    """The local model server: the one already answering, else one started for the bench."""
    if await server_ready(settings):
        yield "a server already running there, shared"
        return
    if not port_free(settings.local_model_port, settings.local_model_host):
        raise ModelUnavailableError(
            f"port {settings.local_model_port} is taken by something that is not a ready local "
            "model server; stop it or set TICKETSMITH_LOCAL_MODEL_PORT"
        )
    try:
        argv = server_argv(settings)
    except LocalModelMissingError as err:
        raise ModelUnavailableError(str(err)) from err
    log = logs / "local-model.log"
    process = spawn(argv, clean_env(**server_library_path(settings)), log)
    try:

        async def ready() -> bool:
            if process.poll() is not None:
                raise ModelUnavailableError(f"the local model server exited; see {log}")
            return await server_ready(settings)

        await until(ready, READY_TIMEOUT_S, "the local model server to load")
        yield "started for this bench"
    finally:
        kill(process)
