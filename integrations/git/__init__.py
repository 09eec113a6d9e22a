"""git through the git CLI: a workspace's clone, the mirror it fetches from, unforced pushes."""
