"""Credentials found and redacted, a push scanned before it leaves, and a release's advisories."""
