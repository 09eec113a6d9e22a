"""How every process reaches Temporal: the one client builder, how a client connects (TLS, an API
key, a temporal.toml profile), and its HTTP API read with the standard library; where it is, read
without pydantic, sits below `config` (temporal_settings.py)."""
