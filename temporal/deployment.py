"""The Worker Deployment Version a worker polls as, from the settings, when versioning is on.

A version is `<deployment name>.<build id>`; Temporal sends each workflow's tasks to the version
it is on (pinned) or to the deployment's current version (auto-upgrade), as its type declares
(workflows/versioning.py). Off, workers poll unversioned, as before.
"""

from temporalio.common import WorkerDeploymentVersion
from temporalio.worker import WorkerDeploymentConfig

SWITCH = "TICKETSMITH_WORKER_VERSIONING"
NAME = "TICKETSMITH_WORKER_DEPLOYMENT_NAME"
BUILD_ID = "TICKETSMITH_WORKER_BUILD_ID"


class VersioningConfigError(ValueError):
    """Versioning is on without a usable deployment name or build id; the message names them."""


def deployment_config(
    enabled: bool, deployment_name: str, build_id: str
) -> WorkerDeploymentConfig | None:
    """The worker's deployment options: None when versioning is off."""
    if not enabled:
        return None
    missing = [setting for setting, value in ((NAME, deployment_name), (BUILD_ID, build_id))
               if not value.strip()]  # fmt: skip
    if missing:
        raise VersioningConfigError(
            f"{SWITCH}=true needs {' and '.join(missing)}: the Worker Deployment this worker "
            "belongs to (the same for every release, e.g. ticketsmith) and the build it runs "
            "(new for every release, e.g. the image tag or git commit)"
        )
    if "." in deployment_name:  # a version is written <deployment name>.<build id>
        raise VersioningConfigError(f"{NAME} may not contain '.': {deployment_name!r}")
    version = WorkerDeploymentVersion(deployment_name.strip(), build_id.strip())
    return WorkerDeploymentConfig(version=version, use_worker_versioning=True)


def in_words(config: WorkerDeploymentConfig | None) -> str:
    """What a worker's start line says of its version."""
    if config is None:
        return f"unversioned ({SWITCH}=false)"
    version = config.version
    return (
        f"Worker Deployment Version {version.to_canonical_string()}: new tickets start here once "
        "it is current (temporal worker deployment set-current-version "
        f"--deployment-name {version.deployment_name} --build-id {version.build_id})"
    )
