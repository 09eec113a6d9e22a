"""The worker's start-up check: bubblewrap must work, or `none` must be chosen explicitly."""

import logging
from pathlib import Path

import pytest

from config import Settings
from integrations.sandbox import Sandbox, SandboxUnavailable
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
