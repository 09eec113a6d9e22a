"""Inventory of the depot."""
