"""What the command line does for a research question: start the graph, follow it, print it."""
