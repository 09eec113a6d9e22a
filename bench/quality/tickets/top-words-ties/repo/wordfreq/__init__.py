"""Word frequency tools."""
