"""How every Temporal client connects: the project's address and namespace, with TLS, client
certificates, an API key and gRPC metadata from Temporal's own client configuration (a
`temporal.toml` profile and `TEMPORAL_*` variables, read by the SDK's `temporalio.envconfig`),
and one clear error naming the setting when that configuration cannot work.

Precedence, field by field: an explicit `TICKETSMITH_TEMPORAL_ADDRESS` or `_NAMESPACE`, then
`TEMPORAL_ADDRESS` or `TEMPORAL_NAMESPACE`, then the profile, then 127.0.0.1:7233 and `default`.
Empty `TEMPORAL_*` variables count as unset (compose passes unset ones as empty).
"""

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import temporal_settings

if TYPE_CHECKING:
    from temporalio.envconfig import ClientConfigProfile
    from temporalio.service import TLSConfig

# The TLS files of a profile: its field, the variables that set it and its key in temporal.toml.
TLS_FILES = {
    "server_root_ca_cert": ("TEMPORAL_TLS_SERVER_CA_CERT", "tls.server_ca_cert"),
    "client_cert": ("TEMPORAL_TLS_CLIENT_CERT", "tls.client_cert"),
    "client_private_key": ("TEMPORAL_TLS_CLIENT_KEY", "tls.client_key"),
}
# What the SDK's connection errors say, in the words of the setting to change.
REFUSALS = (
    (r"NotValidFor", "its certificate does not carry the name the client checks: the address's "
     "host, or {server_name}"),
    # The server's alert, or its closing the connection as TLS 1.3 lets it after the handshake.
    (r"AlertReceived|close_notify|unexpected ?eof|broken ?pipe|connection ?reset|reset by peer"
     r"|connection closed", "it closed the connection in the TLS handshake, as a server does "
     "that {client_refused}"),
    (r"InvalidContentType|InvalidMessage", "it does not answer in TLS there, which {tls_from} "
     "turns on: is this the address it is for?"),
    (r"UnknownIssuer|BadSignature|InvalidCertificate", "its certificate is not signed by {ca}"),
    (r"PrivateKeyParseError|NoPrivateKey", "{client_private_key} holds no private key in PEM"),
    (r"KeyMismatch|InconsistentKeys", "the key in {client_private_key} does not belong to the "
     "certificate in {client_cert}"),
    (r"CertificateParseError|InvalidCertificateData", "{client_cert} holds no certificate in PEM"),
    (r"code: Unauthenticated|code: PermissionDenied", "it refused the credentials: {credentials}"),
)  # fmt: skip


class TemporalConfigError(RuntimeError):
    """Temporal's client configuration cannot work as set; the message names the setting."""


@dataclass(frozen=True)
class TemporalConnection:
    """Where and how a client connects: the arguments of `Client.connect`."""

    address: str
    namespace: str
    tls: "bool | TLSConfig" = False
    api_key: str | None = field(default=None, repr=False)
    rpc_metadata: Mapping[str, str] = field(default_factory=dict, repr=False)
    # The setting behind each part, as the user named it, for errors.
    named: Mapping[str, str] = field(default_factory=dict)

    def refused(self, err: RuntimeError) -> TemporalConfigError | None:
        """The SDK's failure to connect as one sentence naming the setting, when it is about TLS
        or credentials (None otherwise: the server may just not be there)."""
        if self.tls is False and self.api_key is None:
            return None
        for pattern, words in REFUSALS:
            if re.search(pattern, str(err), re.IGNORECASE):
                why = words.format_map(self._names())
                return TemporalConfigError(f"cannot connect to Temporal at {self.address}: {why}")
        return None

    def _names(self) -> dict[str, str]:
        ca = self.named.get("server_root_ca_cert")
        cert = self.named.get("client_cert")
        credentials = [name for name in (cert, self.named.get("api_key")) if name]
        return {
            "ca": f"the CA in {ca}"
            if ca
            else "a CA this machine trusts: set TEMPORAL_TLS_SERVER_CA_CERT_PATH to the "
            "CA that signed it",
            "server_name": self.named.get("server_name", "TEMPORAL_TLS_SERVER_NAME"),
            "client_cert": cert or "TEMPORAL_TLS_CLIENT_CERT_PATH",
            "client_private_key": self.named.get(
                "client_private_key", "TEMPORAL_TLS_CLIENT_KEY_PATH"
            ),
            "credentials": " and ".join(credentials) or "none were set (TEMPORAL_API_KEY)",
            "tls_from": ", ".join(self.named.values()) or "TEMPORAL_TLS",
            "client_refused": f"refuses the client certificate in {cert} (is it signed by the "
            "CA the server trusts?)"
            if cert
            else "asks for a client certificate (TEMPORAL_TLS_CLIENT_CERT_PATH and "
            "TEMPORAL_TLS_CLIENT_KEY_PATH)",
        }


def load_profile(environ: Mapping[str, str] = os.environ) -> "ClientConfigProfile":
    """The profile in use with the `TEMPORAL_*` variables applied, as the SDK loads it."""
    from temporalio.envconfig import ClientConfigProfile

    try:
        return ClientConfigProfile.load(
            override_env_vars=temporal_settings.client_variables(environ)
        )
    except RuntimeError as err:  # the SDK's ConfigError, a TOML error drawn over lines
        lines = (line.strip() for line in str(err).splitlines() if "|" not in line)
        raise TemporalConfigError(
            f"Temporal's client configuration ({profile_in_use(environ)}, with the TEMPORAL_* "
            f"variables) cannot be used: {' '.join(line for line in lines if line)}"
        ) from None


def profile_in_use(environ: Mapping[str, str]) -> str:
    """The profile the SDK reads, and its file."""
    name = environ.get("TEMPORAL_PROFILE") or temporal_settings.DEFAULT_PROFILE
    return f"profile '{name}' of {temporal_settings.config_file(environ)}"


def connection(
    address: str, namespace: str, env_config: bool, environ: Mapping[str, str] = os.environ
) -> TemporalConnection:
    """How to reach Temporal at `address`: in plaintext, unless Temporal's client configuration
    (when `env_config`) says TLS, a client certificate or an API key."""
    if not env_config or not temporal_settings.client_config_in_use(environ):
        return TemporalConnection(address, namespace)
    variables = temporal_settings.client_variables(environ)
    if variables.get("TEMPORAL_TLS_DISABLE_HOST_VERIFICATION", "").lower() in ("true", "1"):
        raise TemporalConfigError(
            "TEMPORAL_TLS_DISABLE_HOST_VERIFICATION=true: the Python SDK always verifies the "
            "server; set TEMPORAL_TLS_SERVER_NAME to a name its certificate carries instead"
        )
    profile = load_profile(environ)
    where = f"in {profile_in_use(environ)}"
    named: dict[str, str] = {}
    if profile.tls is not None:
        for name, (stem, key) in TLS_FILES.items():
            source = getattr(profile.tls, name)
            if source is None:
                continue
            setting = next((v for v in (f"{stem}_PATH", f"{stem}_DATA") if v in variables), "")
            named[name] = setting or f"{key} {where}"
            if isinstance(source, Path):
                named[name] += f" ({source})"
                check_readable(source, named[name])
        if profile.tls.server_name:
            named["server_name"] = f"TEMPORAL_TLS_SERVER_NAME ({profile.tls.server_name})"
    if profile.api_key:
        named["api_key"] = (
            "TEMPORAL_API_KEY" if "TEMPORAL_API_KEY" in variables else f"api_key {where}"
        )
    options = profile.to_client_connect_config()
    return TemporalConnection(
        address=address,
        namespace=namespace,
        tls=options.get("tls", False),
        api_key=options.get("api_key"),
        rpc_metadata=dict(options.get("rpc_metadata", {})),
        named=named,
    )


def check_readable(path: Path, setting: str) -> None:
    """A TLS file the setting names can be read, or a clear error naming the setting."""
    try:
        with path.open("rb"):
            pass
    except OSError as err:
        raise TemporalConfigError(f"{setting} cannot be read: {err.strerror}") from None


def secrets(environ: Mapping[str, str] = os.environ) -> list[str]:
    """The API key and key data of Temporal's client configuration, for the logs to redact."""
    found = [environ.get(n, "") for n in ("TEMPORAL_API_KEY", "TEMPORAL_TLS_CLIENT_KEY_DATA")]
    if temporal_settings.client_config_in_use(environ):
        try:
            found.append(load_profile(environ).api_key or "")
        except TemporalConfigError:
            pass
    return [value for value in found if value]
