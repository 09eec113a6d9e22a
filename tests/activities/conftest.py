"""The graph tests' repository, ticket and analysis fixtures, for the activity tests too."""

from tests.activities.test_agents import remote
from tests.graphs.conftest import analysis, ticket, tiny_repo

__all__ = ["analysis", "remote", "ticket", "tiny_repo"]
