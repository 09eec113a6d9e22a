"""Scripts that measure speed, scale, human input latency, recovery and history size."""
