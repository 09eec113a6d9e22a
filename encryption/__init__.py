"""Payload encryption: the AES-GCM codec and the codec server the Web UI calls."""
