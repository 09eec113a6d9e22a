"""The worker's start-up check: bubblewrap must work, or `none` must be chosen explicitly."""

import logging
import os
from pathlib import Path

import pytest

from config import Settings
from integrations.workspace.sandbox import SHARED_UID, Sandbox, SandboxUnavailable
from integrations.workspace.uid_leases import UidRange
from tests.support.sandboxes import working_sandbox
from worker import check_sandbox


def test_a_missing_bwrap_says_how_to_install_it_or_opt_out() -> None:
    with pytest.raises(SandboxUnavailable) as caught:
        Sandbox(bwrap="no-such-bwrap-here").check()
    assert "apt-get install bubblewrap" in str(caught.value)
    assert "TICKETSMITH_SANDBOX=none" in str(caught.value)


def test_a_bwrap_without_namespaces_is_refused_with_the_reason(tmp_path: Path) -> None:
    fake = tmp_path / "bwrap"  # stands for bubblewrap in a container that forbids namespaces
    fake.write_text("#!/bin/sh\necho 'bwrap: No permissions to create new namespace' >&2\nexit 1\n")
    fake.chmod(0o755)
    with pytest.raises(SandboxUnavailable) as caught:
        Sandbox(bwrap=str(fake)).check()
    assert "No permissions to create new namespace" in str(caught.value)
    assert "seccomp=unconfined" in str(caught.value)


def test_the_worker_refuses_to_start_without_a_sandbox(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no bwrap anywhere
    with pytest.raises(SystemExit) as caught:
        check_sandbox(Settings(sandbox="bwrap", data_dir=tmp_path))
    assert "worker not started" in str(caught.value)
    assert "TICKETSMITH_SANDBOX=none" in str(caught.value)


def test_an_explicit_none_starts_with_a_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    with caplog.at_level(logging.WARNING, logger="ticketsmith.worker"):
        check_sandbox(Settings(sandbox="none", data_dir=tmp_path))
    assert "UNSANDBOXED" in caplog.text


def test_the_sandbox_setting_accepts_only_known_modes() -> None:
    with pytest.raises(ValueError, match="sandbox"):
        Settings(sandbox="docker")


def test_the_worker_says_at_start_how_runs_are_kept_apart(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    settings = Settings(sandbox="bwrap", data_dir=tmp_path, sandbox_uid_base=2_200_000)
    working_sandbox()  # bubblewrap works here, or the test fails saying how to install it
    with caplog.at_level(logging.INFO, logger="ticketsmith.worker"):
        check_sandbox(settings)
    if os.geteuid() == 0:
        assert "isolation between runs: a uid of its own per run, from 2200000-2201023" in (
            caplog.text
        )
    else:
        assert "isolation between runs: every run as this worker's user" in caplog.text


def test_a_worker_not_root_says_its_runs_share_its_users_processes_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    assert "share that user's processes limit" in Sandbox().isolation()
    assert Sandbox(mode="none").isolation().startswith("none:")


def test_set_up_keeps_one_uid_for_the_package_cache_its_tickets_share() -> None:
    setup = Sandbox().for_setup(900)
    assert setup.uids is None and setup.uid == SHARED_UID


@pytest.mark.skipif(os.geteuid() != 0, reason="uid leases are taken by a root worker only")
def test_a_lease_folder_that_cannot_be_made_is_refused_with_its_path(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    leases = tmp_path / "file" / "leases"
    with pytest.raises(SandboxUnavailable, match="uid leases in .*file/leases"):
        Sandbox(uids=UidRange(directory=leases)).check()
