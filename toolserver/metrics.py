"""The tool server's Prometheus metrics: calls, errors and latency by tool."""

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

CALLS = "ticketsmith_toolserver_calls"  # exported with the `_total` suffix
ERRORS = "ticketsmith_toolserver_errors"  # exported with the `_total` suffix
LATENCY = "ticketsmith_toolserver_call_duration_seconds"
BUCKETS = (0.01, 0.05, 0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 5.0, 10.0)

__all__ = ["CONTENT_TYPE_LATEST", "ToolMetrics"]


class ToolMetrics:
    """Instruments in a registry of their own (one per app, so tests can build many)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.calls = Counter(CALLS, "Tool calls by tool", ["tool"], registry=self.registry)
        self.errors = Counter(
            ERRORS,
            "Failed tool calls by tool and kind (injected: a fault; tool: the tool's own error)",
            ["tool", "kind", "status"],
            registry=self.registry,
        )
        self.latency = Histogram(
            LATENCY, "Time to answer a tool call, injected latency included", ["tool"],
            buckets=BUCKETS, registry=self.registry,
        )  # fmt: skip

    def exposition(self) -> bytes:
        """The metrics in Prometheus' text format."""
        return generate_latest(self.registry)
