"""The embedded stack: every service of ticketsmith as a local process."""
