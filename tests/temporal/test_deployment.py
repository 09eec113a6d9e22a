"""The Worker Deployment Version a worker polls as, from its settings."""

import pytest
from temporalio.common import WorkerDeploymentVersion

from temporal.deployment import VersioningConfigError, deployment_config, in_words


def test_off_the_worker_polls_unversioned() -> None:
    assert deployment_config(False, "", "") is None
    assert deployment_config(False, "ticketsmith", "a1") is None
    assert in_words(None) == "unversioned (TICKETSMITH_WORKER_VERSIONING=false)"


def test_on_it_polls_as_the_deployment_and_build() -> None:
    config = deployment_config(True, "ticketsmith", " 2026-12-02.1 ")
    assert config is not None and config.use_worker_versioning
    assert config.version == WorkerDeploymentVersion("ticketsmith", "2026-12-02.1")
    words = in_words(config)
    assert words.startswith("Worker Deployment Version ticketsmith.2026-12-02.1: ")
    assert "--deployment-name ticketsmith --build-id 2026-12-02.1" in words


@pytest.mark.parametrize(
    ("name", "build", "named"),
    [
        ("", "", "TICKETSMITH_WORKER_DEPLOYMENT_NAME and TICKETSMITH_WORKER_BUILD_ID"),
        ("ticketsmith", " ", "TICKETSMITH_WORKER_BUILD_ID:"),
        ("", "a1", "TICKETSMITH_WORKER_DEPLOYMENT_NAME:"),
    ],
)
def test_on_without_a_name_or_build_names_the_setting(name: str, build: str, named: str) -> None:
    with pytest.raises(
        VersioningConfigError, match="TICKETSMITH_WORKER_VERSIONING=true needs"
    ) as err:
        deployment_config(True, name, build)
    assert named in str(err.value)


def test_a_deployment_name_with_a_dot_is_refused() -> None:
    with pytest.raises(VersioningConfigError, match="TICKETSMITH_WORKER_DEPLOYMENT_NAME may not"):
        deployment_config(True, "ticket.smith", "a1")
