"""Tests of the activities."""
