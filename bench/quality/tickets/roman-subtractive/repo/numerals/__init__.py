"""Number formatting."""
