"""Customers of the depot."""
