"""Fault injection for the local HTTP services (the emulators, the tool server): errors and
latency by rule, and the request-body buffering their logs need."""
