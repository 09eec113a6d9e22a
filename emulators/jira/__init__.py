"""The Jira emulator: REST routes (Cloud v3 and Server v2), search, webhooks, JSON views."""
