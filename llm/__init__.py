"""The model plumbing every agent shares: prompts and their contract, structured answers, meters."""
