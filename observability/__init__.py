"""Logs, metrics, traces and the worker interceptors that feed them."""
