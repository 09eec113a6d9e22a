"""uv gets the package indexes pip is configured with (make install)."""

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

from config import ROOT


def uv_env() -> ModuleType:
    """deploy/uv_env.py, a script outside the packages."""
    spec = importlib.util.spec_from_file_location("uv_env", ROOT / "deploy" / "uv_env.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_pip_options_become_uv_variables() -> None:
    config = {
        "index-url": "https://mirror.example/simple",
        "extra-index-url": "file:///opt/a/simple   file:///opt/b/simple",
        "find-links": "/opt/wheels /opt/more",
        "constraint": "/etc/pip/constraints.txt",
        "default-timeout": "180",
        "no-cache-dir": "true",
    }
    assert uv_env().uv_exports(config, {}) == {
        "UV_DEFAULT_INDEX": "https://mirror.example/simple",
        "UV_INDEX": "file:///opt/a/simple file:///opt/b/simple",
        "UV_FIND_LINKS": "/opt/wheels,/opt/more",
        "UV_CONSTRAINT": "/etc/pip/constraints.txt",
        "UV_HTTP_TIMEOUT": "180",
        "UV_INDEX_STRATEGY": "unsafe-best-match",
    }


def test_what_uv_is_already_told_wins() -> None:
    config = {"extra-index-url": "file:///opt/a/simple", "cert": "/etc/ca.pem"}
    environ = {"UV_INDEX": "https://other/simple", "SSL_CERT_FILE": "/x.pem"}
    assert uv_env().uv_exports(config, environ) == {}


def test_the_script_reads_pip_config_from_the_environment(tmp_path: Path) -> None:
    env = {"PIP_CONFIG_FILE": "/dev/null", "PIP_FIND_LINKS": "/opt/wheels", "PATH": "/usr/bin"}
    out = subprocess.run(
        [sys.executable, str(ROOT / "deploy" / "uv_env.py")],
        capture_output=True, text=True, env=env, check=True, cwd=tmp_path,
    )  # fmt: skip
    assert "export UV_FIND_LINKS=/opt/wheels" in out.stdout.splitlines()
