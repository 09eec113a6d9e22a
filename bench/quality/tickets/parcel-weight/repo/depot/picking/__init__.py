"""Picking of the depot."""
