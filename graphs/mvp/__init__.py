"""The MVP builder's agents: manager, architect, SWE worker, tester support and QA."""
