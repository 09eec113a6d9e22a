"""Staff of the depot."""
