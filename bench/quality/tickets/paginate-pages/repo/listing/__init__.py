"""List helpers for the API."""
