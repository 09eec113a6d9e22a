"""Headless Chromium for Web UI tests: found, or installed from Debian as root, else skipped."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from config import ROOT

ARTIFACTS = ROOT / ".data" / "test-artifacts"
FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
    "--window-size=1400,1000", "--virtual-time-budget=15000",
]  # fmt: skip
RENDER_TIMEOUT_S = 90


def chromium() -> str:
    """The chromium binary; installs Debian's package when missing and root, else skips."""
    found = shutil.which("chromium")
    if found:
        return found
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        pytest.skip("chromium is not installed (apt-get install -y chromium fonts-liberation)")
    install = ["apt-get", "install", "-y", "-q", "--no-install-recommends", "chromium",
               "fonts-liberation"]  # fmt: skip
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    done = subprocess.run(install, capture_output=True, text=True, env=env, timeout=600)
    if done.returncode != 0:  # stale package lists: refresh once and retry
        subprocess.run(["apt-get", "update", "-q"], capture_output=True, env=env, timeout=300)
        done = subprocess.run(install, capture_output=True, text=True, env=env, timeout=600)
    found = shutil.which("chromium")
    if done.returncode != 0 or found is None:
        pytest.skip(f"chromium could not be installed: {done.stderr.strip()[-300:]}")
    return found


def render_workflow_page(url: str, profile_dir: Path, artifact: str = "webui.png") -> str:
    """The page's DOM after scripts ran; its screenshot is kept in .data/test-artifacts/."""
    binary = chromium()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    common = [binary, *FLAGS, f"--user-data-dir={profile_dir / 'profile'}"]
    subprocess.run(
        [*common, f"--screenshot={ARTIFACTS / artifact}", url],
        capture_output=True, timeout=RENDER_TIMEOUT_S, check=True,
    )  # fmt: skip
    dom = subprocess.run(
        [*common, "--dump-dom", url],
        capture_output=True, text=True, timeout=RENDER_TIMEOUT_S, check=True,
    )  # fmt: skip
    return dom.stdout
