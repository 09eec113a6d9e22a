"""Postage for the web shop."""
