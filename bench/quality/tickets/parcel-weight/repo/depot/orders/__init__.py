"""Orders of the depot."""
