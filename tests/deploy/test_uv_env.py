"""uv gets the package indexes pip is configured with (make install)."""

import shlex
import subprocess
import sys

from config import ROOT


def exports(env: dict[str, str]) -> dict[str, str]:
    """What `python -m deploy.uv_env` exports, run with this environment."""
    out = subprocess.run(
        [sys.executable, "-m", "deploy.uv_env"],
        capture_output=True, text=True, env=env, check=True, cwd=ROOT,
    )  # fmt: skip
    found = {}
    for line in out.stdout.splitlines():
        name, _, value = line.removeprefix("export ").partition("=")
        found[name] = shlex.split(value)[0]
    return found


def test_pip_settings_become_uv_variables_with_pips_index_strategy() -> None:
    env = {
        "PATH": "/usr/bin:/bin",
        "PIP_EXTRA_INDEX_URL": "file:///opt/a/simple file:///opt/b/simple",
        "PIP_FIND_LINKS": "/opt/wheels /opt/more",
    }
    found = exports(env)
    assert found["UV_INDEX"] == "file:///opt/a/simple file:///opt/b/simple"
    assert found["UV_FIND_LINKS"] == "/opt/wheels,/opt/more"
    assert found["UV_INDEX_STRATEGY"] == "unsafe-best-match"


def test_what_uv_is_already_told_wins() -> None:
    env = {
        "PATH": "/usr/bin:/bin",
        "PIP_EXTRA_INDEX_URL": "file:///opt/a/simple",
        "UV_INDEX": "https://other.example/simple",
        "UV_INDEX_STRATEGY": "first-index",
    }
    found = exports(env)
    assert found["UV_INDEX"] == "https://other.example/simple"
    assert found["UV_INDEX_STRATEGY"] == "first-index"
