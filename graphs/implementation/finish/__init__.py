"""The end of the loop: the best revision settled, the result and its account of the tests."""
