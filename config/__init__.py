"""Settings: the plain values each process reads from its environment (projects: tickets/).

Each group of settings is a class of its own module (`services`, `temporal`, `models`,
`sandbox`, `worker`, `webhooks`, `emulators`, `toolserver`, `admin`); each process reads the
class made of the groups it uses (`processes`), so a value only the worker reads cannot stop the
webhook app from starting. The variables are all `TICKETSMITH_<FIELD>` and are documented, by
the process that reads them, in docs/running/configuration.md.
"""

from config.common import ROOT
from config.processes import (
    CodecServerSettings,
    CommandLineSettings,
    EmulatorProcessSettings,
    Settings,
    TicketStarterSettings,
    ToolServerProcessSettings,
    WebhookAppSettings,
    WorkerSettings,
    get_settings,
)

__all__ = [
    "ROOT",
    "CodecServerSettings",
    "CommandLineSettings",
    "EmulatorProcessSettings",
    "Settings",
    "TicketStarterSettings",
    "ToolServerProcessSettings",
    "WebhookAppSettings",
    "WorkerSettings",
    "get_settings",
]
