"""The research agents: a manager, Jira, document, PDF and search agents, and synthesis."""
