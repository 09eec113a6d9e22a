"""Suppliers of the depot."""
