"""How every process reaches Temporal: where it is (read without pydantic), how a client connects
(TLS, an API key, a temporal.toml profile), and its HTTP API read with the standard library."""
