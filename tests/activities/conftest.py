"""The graph tests' repository, ticket and analysis fixtures, for the activity tests too."""

from tests.graphs.conftest import analysis, ticket, tiny_repo

__all__ = ["analysis", "ticket", "tiny_repo"]
