"""Real-code tickets: a pinned project's modules and tests, altered, with computed hidden tests."""
