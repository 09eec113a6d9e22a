"""LangGraph agent graphs, their state and prompts, and the model factory."""
