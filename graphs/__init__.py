"""The agent graphs by phase, their state and results, the model factory and the offline model."""
