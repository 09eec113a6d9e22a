"""Sizes in words, decimal units (kB, MB) as humanize writes them."""

import os

import humanize


def describe(size: int) -> str:
    """A byte count for people: 3000 -> '3.0 kB'."""
    if size < 0:
        raise ValueError(f"a size cannot be negative: {size}")
    return humanize.naturalsize(size)


def describe_file(path: str) -> str:
    """The size of a file, described."""
    return describe(os.path.getsize(path))
