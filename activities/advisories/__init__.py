"""The dependency advisory check: the known vulnerabilities of the dependency versions a change
brings, and its typed input and report."""
