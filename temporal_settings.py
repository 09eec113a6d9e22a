"""Where Temporal is, read without pydantic: the few settings `status`, `list` and `watch` need.

`config.temporal.TemporalSettings` takes these settings' defaults and derived URLs from here,
so the quick path and every other process read the same values from the same `TICKETSMITH_*`
variables and `.env`.
Whether Temporal's own client configuration (a `temporal.toml` profile, `TEMPORAL_*` variables)
is in use is told here too, without the SDK, and the address and namespace it sets, with it:
then those commands read over gRPC, where the SDK applies the rest (temporal/connection.py).
Below `config`, it imports nothing of the project.
"""

import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

PREFIX = "TICKETSMITH_"
ENV_FILE = Path(".env")  # relative to the working directory, as pydantic-settings reads it
TEMPORAL_ADDRESS = "127.0.0.1:7233"
TEMPORAL_NAMESPACE = "default"
TEMPORAL_UI_PORT = 8233
TEMPORAL_HTTP_PORT = 7243
STATUS_QUERY_SECONDS = 30.0
# What the SDK's client configuration reads (temporalio.envconfig), and TEMPORAL_GRPC_META_*.
CLIENT_VARIABLES = (
    "TEMPORAL_ADDRESS", "TEMPORAL_NAMESPACE", "TEMPORAL_API_KEY", "TEMPORAL_PROFILE",
    "TEMPORAL_TLS", "TEMPORAL_TLS_CLIENT_CERT_PATH", "TEMPORAL_TLS_CLIENT_CERT_DATA",
    "TEMPORAL_TLS_CLIENT_KEY_PATH", "TEMPORAL_TLS_CLIENT_KEY_DATA",
    "TEMPORAL_TLS_SERVER_CA_CERT_PATH", "TEMPORAL_TLS_SERVER_CA_CERT_DATA",
    "TEMPORAL_TLS_SERVER_NAME", "TEMPORAL_TLS_DISABLE_HOST_VERIFICATION",
)  # fmt: skip
META_PREFIX = "TEMPORAL_GRPC_META_"
DEFAULT_PROFILE = "default"
# As pydantic reads a bool.
FALSE, TRUE = ("0", "off", "f", "false", "n", "no"), ("1", "on", "t", "true", "y", "yes")


def ui_url(port: int) -> str:
    """The Web UI on this machine at `port`."""
    return f"http://127.0.0.1:{port}"


def http_url(address: str, port: int) -> str:
    """Temporal's HTTP API: the gRPC address's host at `port`."""
    return f"http://{address.rsplit(':', 1)[0]}:{port}"


class TemporalEndpoints(Protocol):
    """What a read over Temporal's HTTP API needs; `config.temporal.TemporalSettings` has it too."""

    @property
    def temporal_address(self) -> str: ...
    @property
    def temporal_namespace(self) -> str: ...
    @property
    def temporal_ui_url(self) -> str: ...
    @property
    def temporal_http_url(self) -> str: ...
    @property
    def status_query_seconds(self) -> float: ...


@dataclass(frozen=True)
class TemporalSettings:
    """The Temporal settings of this process (see `read`)."""

    temporal_address: str = TEMPORAL_ADDRESS
    temporal_namespace: str = TEMPORAL_NAMESPACE
    temporal_ui_url: str = ui_url(TEMPORAL_UI_PORT)
    temporal_http_url: str = http_url(TEMPORAL_ADDRESS, TEMPORAL_HTTP_PORT)
    status_query_seconds: float = STATUS_QUERY_SECONDS


def read(environ: Mapping[str, str] = os.environ, env_file: Path = ENV_FILE) -> TemporalSettings:
    """The settings from `.env` and the environment (which wins), as `config`'s settings read them.

    With Temporal's client configuration in use the HTTP API is `off`: that configuration may
    move the address and namespace and adds TLS and credentials, which only the SDK applies.

    Raises ValueError, naming the variable, for a value that is not a number where one is needed.
    """
    values = {name.lower(): value for name, value in dotenv(env_file).items()}
    values |= {name.lower(): value for name, value in environ.items()}

    def setting(name: str, default: object) -> str:
        return values.get((PREFIX + name).lower(), str(default))

    def number(name: str, default: float, kind: type[int] | type[float]) -> float:
        text = setting(name, default)
        try:
            value = kind(text)
        except ValueError:
            raise ValueError(f"{(PREFIX + name).upper()} is not a number: {text!r}") from None
        if value <= 0:
            raise ValueError(f"{(PREFIX + name).upper()} must be above 0, not {text}")
        return value

    address = setting("temporal_address", TEMPORAL_ADDRESS)
    seconds = number("status_query_seconds", STATUS_QUERY_SECONDS, float)
    ui_port = int(number("temporal_ui_port", TEMPORAL_UI_PORT, int))
    http_port = int(number("temporal_http_port", TEMPORAL_HTTP_PORT, int))
    env_config = setting("temporal_env_config", "true").strip().lower()
    if env_config not in FALSE + TRUE:
        raise ValueError(f"{PREFIX}TEMPORAL_ENV_CONFIG is not true or false: {env_config!r}")
    in_use = env_config in TRUE and client_config_in_use(environ)
    return TemporalSettings(
        temporal_address=address,
        temporal_namespace=setting("temporal_namespace", TEMPORAL_NAMESPACE),
        temporal_ui_url=setting("temporal_ui_url", "") or ui_url(ui_port),
        temporal_http_url="off"
        if in_use
        else setting("temporal_http_url", "") or http_url(address, http_port),
        status_query_seconds=seconds,
    )


def client_config_in_use(environ: Mapping[str, str] = os.environ) -> str:
    """What of Temporal's client configuration is set (a variable, a profile), or "" if nothing.

    Empty variables count as unset, as `temporal.connection` passes them to the SDK.
    """
    for name in CLIENT_VARIABLES:
        if environ.get(name):
            return name
    for name, value in environ.items():
        if name.startswith(META_PREFIX) and value:
            return name
    path = config_file(environ)
    if not path.is_file():
        return ""
    import tomllib  # only when there is a file: it costs an import

    profile = environ.get("TEMPORAL_PROFILE") or DEFAULT_PROFILE
    try:
        profiles = tomllib.loads(path.read_text(encoding="utf-8")).get("profile", {})
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return str(path)  # the SDK says what is wrong with it
    return f"profile '{profile}' of {path}" if profiles.get(profile) else ""


def client_variables(environ: Mapping[str, str]) -> dict[str, str]:
    """The `TEMPORAL_*` variables the SDK is given: the set ones."""
    return {
        name: value for name, value in environ.items() if name.startswith("TEMPORAL_") and value
    }


def configured_endpoint(environ: Mapping[str, str] = os.environ) -> tuple[str | None, str | None]:
    """The address and namespace Temporal's client configuration sets, if it can be read
    (connecting says what is wrong with it)."""
    from temporalio.envconfig import ClientConfigProfile  # only when that configuration is in use

    try:
        profile = ClientConfigProfile.load(override_env_vars=client_variables(environ))
    except RuntimeError:  # the SDK's ConfigError; temporal.connection words it
        return None, None
    return profile.address or None, profile.namespace or None


def config_file(environ: Mapping[str, str] = os.environ) -> Path:
    """The `temporal.toml` the SDK reads: TEMPORAL_CONFIG_FILE, else in the user's config folder."""
    if named := environ.get("TEMPORAL_CONFIG_FILE"):
        return Path(named)
    home = Path(environ.get("HOME") or Path.home())
    if sys.platform == "darwin":
        folder = home / "Library" / "Application Support"
    elif sys.platform == "win32":
        folder = Path(environ.get("APPDATA") or home / "AppData" / "Roaming")
    else:
        xdg = environ.get("XDG_CONFIG_HOME", "")
        folder = Path(xdg) if Path(xdg).is_absolute() else home / ".config"
    return folder / "temporalio" / "temporal.toml"


def dotenv(path: Path) -> dict[str, str]:
    """The `TICKETSMITH_*` values of a dotenv file, parsed as pydantic-settings parses it."""
    if not path.is_file():
        return {}
    from dotenv import dotenv_values  # only when there is a file: it costs an import

    parsed = dotenv_values(path, encoding="utf-8")
    return {k: v for k, v in parsed.items() if v is not None and k.upper().startswith(PREFIX)}
