"""Spans in memory for tests, on the process's one tracer provider (OpenTelemetry allows one)."""

from collections.abc import Iterator
from contextlib import contextmanager

from opentelemetry import trace
from opentelemetry.instrumentation.httpx import HTTPXClientInstrumentor
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from observability import tracing


@contextmanager
def recorded_spans() -> Iterator[InMemorySpanExporter]:
    """Tracing on (configured the first time), httpx instrumented, this block's spans kept."""
    if not isinstance(trace.get_tracer_provider(), TracerProvider):
        tracing._configured.clear()
        tracing.configure_tracing(
            "http://collector:4318", "ticketsmith-test", exporter=InMemorySpanExporter()
        )
    provider = trace.get_tracer_provider()
    assert isinstance(provider, TracerProvider)
    tracing._configured["provider"] = provider
    spans = InMemorySpanExporter()
    provider.add_span_processor(SimpleSpanProcessor(spans))
    HTTPXClientInstrumentor().instrument(tracer_provider=provider)
    try:
        yield spans
    finally:
        HTTPXClientInstrumentor().uninstrument()
        spans.shutdown()
