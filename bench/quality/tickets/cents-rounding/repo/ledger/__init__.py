"""Ledger amounts for the bank upload."""
