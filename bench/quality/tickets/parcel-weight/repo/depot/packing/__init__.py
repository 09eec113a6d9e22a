"""Packing of the depot."""
