"""The MCP tool server the research agents call: Jira tickets, documents and PDFs, web search."""
