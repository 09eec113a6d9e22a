"""Reading settings."""
