"""File sizes for people."""

from sizes.describe import describe, describe_file

__all__ = ["describe", "describe_file"]
