"""Tests of the agent graphs."""
