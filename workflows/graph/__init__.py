"""User-defined agent graphs run as a workflow: the workflow, its messages, its runner."""
