"""Reports of the depot."""
