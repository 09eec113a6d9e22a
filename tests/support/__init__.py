"""Test doubles shared by several test packages: a local tester and an OpenAI-compatible server."""
