"""Depot: the back office of a warehouse that stores, picks, packs and ships orders."""

__version__ = "0.4.0"
