"""GitLab: the REST API v4 client for merge requests."""
