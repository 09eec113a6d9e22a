"""The review phase's agents: judging comments, merging conflicts, feedback as a plan."""
