"""Who may call the routes that change state or read payloads (codec, tool server, emulators)."""
