"""Readings from the house's climate sensors."""
