"""Each process's settings, made of the groups it reads, and the cache every process reads from."""

from typing import TypeVar, overload

from pydantic import Field
from pydantic_settings import BaseSettings

from config.admin import AdminSettings
from config.emulators import EmulatorSettings
from config.models import ModelSettings
from config.sandbox import SandboxSettings
from config.services import ServiceSettings
from config.temporal import TemporalSettings, TracingSettings
from config.toolserver import ToolServerAddress, ToolServerSettings
from config.webhooks import WebhookSettings
from config.worker import ImplementationSettings, WorkerOptions


class WorkerSettings(
    TemporalSettings,
    ServiceSettings,
    ModelSettings,
    SandboxSettings,
    ImplementationSettings,
    WorkerOptions,
    ToolServerAddress,
):
    """What the worker reads (worker.py): it runs the workflows and every activity."""


class TicketStarterSettings(TemporalSettings, ServiceSettings):
    """What starting a ticket reads: its project, the code host's URLs and the task queues."""


class WebhookAppSettings(TicketStarterSettings, WebhookSettings):
    """What the webhook app reads (webhooks/app.py): deliveries in, signals and starts out."""


class CommandLineSettings(TicketStarterSettings, ToolServerAddress, AdminSettings):
    """What `starter.py` reads beyond the few `status`, `list` and `watch` take without pydantic."""


class EmulatorProcessSettings(
    ServiceSettings, SandboxSettings, WebhookSettings, EmulatorSettings, AdminSettings
):
    """What the emulators read (python -m emulators): their CI runs tests in the sandbox."""


class ToolServerProcessSettings(
    TracingSettings, ServiceSettings, ToolServerSettings, AdminSettings
):
    """What the tool server reads (python -m toolserver): its search reads Jira too."""


class CodecServerSettings(TemporalSettings, AdminSettings):
    """What the codec server reads (encryption/server.py)."""


class Settings(
    WorkerSettings,
    WebhookAppSettings,
    CommandLineSettings,
    ToolServerProcessSettings,
    EmulatorProcessSettings,
    CodecServerSettings,
):
    """Every setting: the embedded stack and the benches, which start every process, read these."""

    # How long the embedded stack waits for each service to be ready: a busy machine can
    # take minutes to import the worker.
    ready_timeout_seconds: float = Field(default=600.0, gt=0)


S = TypeVar("S", bound=BaseSettings)


class SettingsCache:
    """One instance of each settings class a process asks for, read from its environment once."""

    def __init__(self) -> None:
        self._read: dict[type[BaseSettings], BaseSettings] = {}

    @overload
    def __call__(self) -> Settings: ...
    @overload
    def __call__(self, kind: type[S]) -> S: ...
    def __call__(self, kind: type[BaseSettings] = Settings) -> BaseSettings:
        """The settings of `kind` (all of them unless told), read on the first call."""
        if kind not in self._read:
            self._read[kind] = kind()
        return self._read[kind]

    def cache_clear(self) -> None:
        """Read the environment again on the next call; tests call it to override."""
        self._read.clear()


get_settings = SettingsCache()
