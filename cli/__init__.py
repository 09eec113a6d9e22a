"""The command line behind starter.py: what each subcommand does, how it reads a ticket or a
graph run, and how its answer prints."""
