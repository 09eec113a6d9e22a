"""Summary statistics."""
