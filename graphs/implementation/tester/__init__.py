"""The tester: gate a revision, run the tests, keep it or discard it against the best so far."""
