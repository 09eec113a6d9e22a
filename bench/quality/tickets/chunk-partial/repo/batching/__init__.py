"""Batching helpers."""
