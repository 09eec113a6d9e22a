"""What the tests and the benchmarks both drive the product with: a scripted model server and
team, processes and stacks on free ports, HTTP apps served in a thread, webhook payloads, a
tester that runs a command on a copy of a repository with changes written in."""
