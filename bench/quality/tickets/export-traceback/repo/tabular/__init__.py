"""Plain-text tables for reports."""
