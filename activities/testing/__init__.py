"""A project's tests, run as the activities and the graphs' tester run them: the run, its cases,
the traced second run of a failing test, and the instruction checks beside them."""
