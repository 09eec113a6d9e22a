"""The Temporal connection's tests, as the command line's, see only the Temporal configuration they
set."""

from tests.cli.conftest import no_temporal_config  # noqa: F401  (autouse)
