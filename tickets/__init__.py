"""How a ticket starts, for the command line and the webhooks: its project's config, the repository
it goes to, its workflow input and the start."""
