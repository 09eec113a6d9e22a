"""GitHub: the REST client, its credentials (token or App), and Actions runs, jobs and logs."""
