"""The model plumbing every agent shares: prompts and their contract, structured answers, fenced
code, tool loops, meters and what calls cost."""
