"""What the command line and the webhooks do to a ticket: start it, send it input, read it."""
