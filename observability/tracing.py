"""OpenTelemetry traces for workflows, activities, HTTP and model calls; off unless configured.

Needs the `otel` extra (`pip install 'ticketsmith[otel]'`). Spans go to an OTLP/HTTP
collector at `TICKETSMITH_OTEL_ENDPOINT` (e.g. `http://otel-collector:4318`).
"""

from typing import Any

from temporalio.client import Interceptor

INSTALL_HINT = (
    "TICKETSMITH_OTEL_ENDPOINT is set but the OpenTelemetry packages are missing; "
    "install them with `pip install 'ticketsmith[otel]'` or unset the setting"
)

_configured: dict[str, Any] = {}


class TracingUnavailableError(RuntimeError):
    """Tracing is switched on but its packages are not installed."""


def traces_url(endpoint: str) -> str:
    """The OTLP/HTTP traces URL for a collector's base endpoint."""
    endpoint = endpoint.rstrip("/")
    return endpoint if endpoint.endswith("/v1/traces") else f"{endpoint}/v1/traces"


def configure_tracing(endpoint: str, service_name: str, exporter: Any = None) -> None:
    """Install the global tracer provider and instrument httpx, once per process."""
    if _configured:
        return
    try:
        from opentelemetry import trace
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
        from opentelemetry.instrumentation.httpx import HTTPXClientInstrumentor
        from opentelemetry.sdk.resources import Resource
        from opentelemetry.sdk.trace import TracerProvider
        from opentelemetry.sdk.trace.export import BatchSpanProcessor
    except ImportError as err:
        raise TracingUnavailableError(f"{INSTALL_HINT} ({err})") from err
    provider = TracerProvider(resource=Resource.create({"service.name": service_name}))
    exporter = exporter or OTLPSpanExporter(endpoint=traces_url(endpoint))
    provider.add_span_processor(BatchSpanProcessor(exporter))
    trace.set_tracer_provider(provider)
    # Jira, GitHub, Discord and the model client (the OpenAI SDK) all speak through httpx.
    HTTPXClientInstrumentor().instrument(tracer_provider=provider)
    _configured["provider"] = provider


def tracing_interceptors(endpoint: str | None, service_name: str) -> list[Interceptor]:
    """The client (and so worker) interceptors for tracing: none when no endpoint is set."""
    if not endpoint:
        return []
    configure_tracing(endpoint, service_name)
    try:
        from temporalio.contrib.opentelemetry import TracingInterceptor
    except ImportError as err:
        raise TracingUnavailableError(f"{INSTALL_HINT} ({err})") from err
    return [TracingInterceptor()]


def flush_traces() -> None:
    """Send buffered spans before the process exits."""
    provider = _configured.get("provider")
    if provider is not None:
        provider.force_flush()
