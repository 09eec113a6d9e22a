"""Which Worker Deployment Version a ticket's run is on, in words, from the server's description of
the run (its `versioningInfo`, as the HTTP API writes it and gRPC's JSON form reads)."""

from collections.abc import Mapping
from typing import Any

BEHAVIOURS = {
    "VERSIONING_BEHAVIOR_PINNED": "pinned",
    "VERSIONING_BEHAVIOR_AUTO_UPGRADE": "auto-upgrade",
}


def worker_version(execution_info: Mapping[str, Any]) -> str | None:
    """`<deployment>.<build id> (<behaviour>)`, and where it is moving; None when unversioned."""
    info = execution_info.get("versioningInfo") or {}
    version = version_name(info.get("deploymentVersion"))
    if version is None:
        return None
    override = info.get("versioningOverride") or {}
    if "pinned" in override:
        how = "pinned by an override"
    elif override.get("autoUpgrade"):
        how = "auto-upgrade by an override"
    else:
        how = BEHAVIOURS.get(str(info.get("behavior")), "no behaviour declared")
    target = version_name((info.get("versionTransition") or {}).get("deploymentVersion"))
    moving = f", moving to {target}" if target else ""
    return f"{version} ({how}{moving})"


def version_name(version: Mapping[str, Any] | None) -> str | None:
    """A version as Temporal writes it: `<deployment name>.<build id>`."""
    if not version or not version.get("buildId"):
        return None
    return f"{version.get('deploymentName', '')}.{version['buildId']}"
