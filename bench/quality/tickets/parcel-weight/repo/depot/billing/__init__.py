"""Billing of the depot."""
