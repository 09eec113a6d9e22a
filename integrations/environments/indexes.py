"""Where packages come from on this machine: pip's configuration, translated for uv.

The set-up sandbox sees no pip config file and no worker variable, so the index URLs, local
wheel folders, certificates and proxies the machine uses are passed in explicitly.
"""

import configparser
import os
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

# pip's own files, lowest priority first (a later file overrides an earlier one).
PIP_CONFIG_FILES = (
    Path("/etc/pip.conf"),
    Path("/etc/xdg/pip/pip.conf"),
    Path.home() / ".pip" / "pip.conf",
    Path.home() / ".config" / "pip" / "pip.conf",
)
PROXY_VARS = ("HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "http_proxy", "https_proxy", "no_proxy")


@dataclass
class PackageSources:
    """uv's environment variables for this machine's indexes, and the local paths they name."""

    env: dict[str, str] = field(default_factory=dict)
    paths: list[Path] = field(default_factory=list)


def pip_settings() -> dict[str, str]:
    """pip's `[global]`/`[install]` settings merged from its files and PIP_* variables."""
    parser = configparser.ConfigParser(interpolation=None)
    files = [*PIP_CONFIG_FILES]
    if os.environ.get("PIP_CONFIG_FILE"):
        files.append(Path(os.environ["PIP_CONFIG_FILE"]))
    settings: dict[str, str] = {}
    for path in files:
        try:
            parser.read(path, encoding="utf-8")
        except (configparser.Error, OSError, UnicodeDecodeError):
            continue
        for section in ("global", "install"):
            if parser.has_section(section):
                settings.update(parser.items(section))
    for key, value in os.environ.items():
        if key.startswith("PIP_"):
            settings[key[4:].lower().replace("_", "-")] = value
    return settings


def package_sources() -> PackageSources:
    """The uv settings that reach the same indexes pip reaches here."""
    pip = pip_settings()
    sources = PackageSources()
    passed = {k: v for k, v in os.environ.items() if k.startswith("UV_") and "TOKEN" not in k}
    mapping = {
        "index-url": "UV_DEFAULT_INDEX",
        "extra-index-url": "UV_INDEX",
        "find-links": "UV_FIND_LINKS",
        "constraint": "UV_CONSTRAINT",
    }
    for pip_key, uv_key in mapping.items():
        values = pip.get(pip_key, "").split()
        if not values or uv_key in passed:
            continue
        sources.paths += [p for v in values if (p := _local_path(v)) is not None]
        sources.env[uv_key] = ("," if uv_key == "UV_FIND_LINKS" else " ").join(values)
    cert = pip.get("cert") or os.environ.get("SSL_CERT_FILE")
    if cert:
        sources.env["SSL_CERT_FILE"] = cert
        sources.paths.append(Path(cert))
    sources.env.update(passed)
    sources.env.update({k: os.environ[k] for k in PROXY_VARS if k in os.environ})
    sources.paths = [p for p in dict.fromkeys(sources.paths) if p.exists()]
    return sources


def _local_path(value: str) -> Path | None:
    """The local folder an index or link names (file:// URL or plain path), else None.

    A local index's `simple/` pages link to files beside it, so its parent is what is needed.
    """
    if value.startswith("file:"):
        path = Path(urlparse(value).path)
    elif "://" not in value and value.startswith("/"):
        path = Path(value)
    else:
        return None
    return path.parent if path.name == "simple" else path
