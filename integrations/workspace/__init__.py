"""The workspace: the bubblewrap sandbox every command runs in, its limits, a test run's report."""
