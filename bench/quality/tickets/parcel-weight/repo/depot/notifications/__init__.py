"""Notifications of the depot."""
