"""The research agents' activities: the agents, their tools over MCP, their checkpoints."""
