"""The one Temporal client builder: worker, starter, webhooks and tests connect through it, with
the data converter every client and worker uses."""

from typing import TYPE_CHECKING

from config import get_settings
from config.temporal import TemporalSettings

if TYPE_CHECKING:  # the SDK is imported where it connects: `status` and `list` go without it
    from temporalio.client import Client
    from temporalio.converter import DataConverter
    from temporalio.runtime import Runtime


def converter_for(settings: TemporalSettings) -> "DataConverter":
    """The data converter every client and worker uses: pydantic, codec, payload store."""
    from encryption.codec import data_converter
    from encryption.store import payload_storage

    keys = settings.encryption_keys.get_secret_value() if settings.encryption_keys else None
    threshold = settings.payload_store_threshold_kib * 1024
    return data_converter(keys, payload_storage(settings.payload_store_path, threshold))


async def connect_temporal(
    settings: TemporalSettings | None = None, runtime: "Runtime | None" = None
) -> "Client":
    """A client of the Temporal the settings name, over the connection its client
    configuration describes.

    Raises TemporalConfigError, one sentence naming the setting, when Temporal's client
    configuration (TLS files, client certificate, API key) cannot work.
    """
    from temporalio.client import Client

    from observability.tracing import tracing_interceptors
    from temporal.connection import connection

    settings = settings or get_settings(TemporalSettings)
    how = connection(
        settings.temporal_address, settings.temporal_namespace, settings.temporal_env_config
    )
    try:
        return await Client.connect(
            how.address,
            namespace=how.namespace,
            tls=how.tls,
            api_key=how.api_key,
            rpc_metadata=how.rpc_metadata,
            data_converter=converter_for(settings),
            interceptors=tracing_interceptors(settings.otel_endpoint, settings.otel_service_name),
            runtime=runtime,
        )
    except RuntimeError as err:
        if refusal := how.refused(err):
            raise refusal from None
        raise
