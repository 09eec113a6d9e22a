"""`starter.py status` says which Worker Deployment Version a ticket's run is on, read from the
server's description of the run (the JSON below is what the dev server answers)."""

from typing import Any

from cli.status.render import render_status, to_text
from cli.status.worker_version import worker_version


def described(**versioning: Any) -> dict[str, Any]:
    """A run's execution info as the HTTP API writes it, with this `versioningInfo`."""
    return {"status": "WORKFLOW_EXECUTION_STATUS_RUNNING", "versioningInfo": versioning}


def version(build: str) -> dict[str, str]:
    return {"deploymentName": "ticketsmith", "buildId": build}


def test_the_version_and_how_the_run_moves() -> None:
    pinned = described(behavior="VERSIONING_BEHAVIOR_PINNED", deploymentVersion=version("a1"))
    assert worker_version(pinned) == "ticketsmith.a1 (pinned)"
    auto = described(behavior="VERSIONING_BEHAVIOR_AUTO_UPGRADE", deploymentVersion=version("b2"))
    assert worker_version(auto) == "ticketsmith.b2 (auto-upgrade)"


def test_a_run_moving_to_the_current_version_says_where() -> None:
    moving = described(
        behavior="VERSIONING_BEHAVIOR_AUTO_UPGRADE",
        deploymentVersion=version("a1"),
        versionTransition={"deploymentVersion": version("b2")},
    )
    assert worker_version(moving) == "ticketsmith.a1 (auto-upgrade, moving to ticketsmith.b2)"


def test_an_override_wins_over_the_declared_behaviour() -> None:
    override = {"pinned": {"version": version("a1"), "behavior": "PINNED_OVERRIDE_BEHAVIOR_PINNED"}}
    pinned = described(
        behavior="VERSIONING_BEHAVIOR_AUTO_UPGRADE",
        deploymentVersion=version("a1"),
        versioningOverride=override,
    )
    assert worker_version(pinned) == "ticketsmith.a1 (pinned by an override)"


def test_an_unversioned_run_shows_no_version() -> None:
    assert worker_version({"status": "WORKFLOW_EXECUTION_STATUS_RUNNING"}) is None
    assert worker_version(described(behavior="VERSIONING_BEHAVIOR_PINNED")) is None


def test_status_prints_the_version_line_only_when_there_is_one() -> None:
    current = {"key": "DEMO-1", "phase": "refinement", "status": "awaiting_answers"}
    assert "worker version" not in to_text(render_status(current, "u"))
    versioned = current | {"worker_version": "ticketsmith.b2 (auto-upgrade)"}
    assert "  worker version: ticketsmith.b2 (auto-upgrade)\n" in to_text(
        render_status(versioned, "u")
    )
