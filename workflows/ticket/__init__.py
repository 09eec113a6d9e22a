"""The ticket workflow: one Jira ticket from its questions to a merged pull request."""
