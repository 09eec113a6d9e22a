"""Returns of the depot."""
