"""Settings of every Temporal client: where the cluster is, the task queues, payloads, traces."""

from pathlib import Path

from pydantic import Field, SecretStr, model_validator

import temporal_settings as temporal
from config.common import CommonSettings


class TracingSettings(CommonSettings):
    """Where OpenTelemetry traces go."""

    otel_endpoint: str | None = None
    otel_service_name: str = "ticketsmith"


class TemporalSettings(TracingSettings):
    """What a process that talks to Temporal reads."""

    # Read without pydantic by `status`, `list` and `watch` (temporal_settings.py).
    # Unset, the address and namespace come from Temporal's client configuration when it sets
    # them (TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, a temporal.toml profile): see
    # temporal/connection.py, which takes TLS and the API key from there.
    temporal_address: str = temporal.TEMPORAL_ADDRESS
    temporal_namespace: str = temporal.TEMPORAL_NAMESPACE
    # Read Temporal's client configuration at all (the embedded stack's processes do not: they
    # talk to its own plaintext dev server).
    temporal_env_config: bool = True
    temporal_ui_port: int = temporal.TEMPORAL_UI_PORT
    temporal_ui_url: str = ""
    # Temporal's HTTP API, where `status`, `list` and `watch` read; "off" reads over gRPC only.
    temporal_http_port: int = temporal.TEMPORAL_HTTP_PORT
    temporal_http_url: str = ""
    task_queue: str = "ticketsmith"
    agent_task_queue: str = "ticketsmith-agents"
    # How long `starter.py status` waits for a worker to answer about a running ticket.
    status_query_seconds: float = Field(default=temporal.STATUS_QUERY_SECONDS, gt=0)

    encryption_keys: SecretStr | None = Field(
        default=None, description="key_id=base64key,...: the first encrypts, all decrypt"
    )
    # Payloads of at least this size are kept in the payload store, the history holds a
    # reference (0: none are; references already written still read back).
    payload_store_threshold_kib: int = Field(default=32, ge=0)
    # Shared by every worker and client (None: <data_dir>/payloads).
    payload_store_dir: Path | None = None

    @model_validator(mode="after")
    def _temporal_urls(self) -> "TemporalSettings":
        """Unset Web UI and HTTP API URLs point at this machine and the gRPC address's host."""
        self.temporal_ui_url = self.temporal_ui_url or temporal.ui_url(self.temporal_ui_port)
        if self.temporal_env_config and temporal.client_config_in_use():
            self._apply_temporal_client_config()
        self.temporal_http_url = self.temporal_http_url or temporal.http_url(
            self.temporal_address, self.temporal_http_port
        )
        return self

    def _apply_temporal_client_config(self) -> None:
        """Temporal's client configuration is in use: its address and namespace where ours are
        not set, and reads over gRPC, which alone applies its TLS and credentials."""
        address, namespace = temporal.configured_endpoint()
        if address and "temporal_address" not in self.model_fields_set:
            self.temporal_address = address
        if namespace and "temporal_namespace" not in self.model_fields_set:
            self.temporal_namespace = namespace
        self.temporal_http_url = "off"

    @property
    def payload_store_path(self) -> Path:
        """The folder of payloads too large for the history."""
        return self.payload_store_dir or self.data_dir / "payloads"
