"""The graph subcommands of the command line: run a definition, build an MVP, list graph runs."""
