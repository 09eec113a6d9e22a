"""Acceptance criteria as tests, written before the first revision and kept when they fail."""
