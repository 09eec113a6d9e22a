"""Jira: the REST client (Cloud v3 and Server v2) and its text formats, ADF and wiki markup."""
