"""The status family of the command line: `status`, `list`, `watch` and how a status shows."""
