"""Print shell exports that make uv use the package indexes pip is configured with.

uv does not read pip's configuration files; `make install` evaluates this output before
`uv pip install` so both resolve from the same places (a mirror, local wheels, constraints).
Settings already given to uv in the environment win. Run with the venv's Python: stdlib only.
"""

import shlex
import subprocess
import sys

# pip option -> (uv variable, separator uv expects between values)
OPTIONS = {
    "index-url": ("UV_DEFAULT_INDEX", " "),
    "extra-index-url": ("UV_INDEX", " "),
    "find-links": ("UV_FIND_LINKS", ","),
    "constraint": ("UV_CONSTRAINT", " "),
    "cert": ("SSL_CERT_FILE", " "),
    "trusted-host": ("UV_INSECURE_HOST", " "),
    "timeout": ("UV_HTTP_TIMEOUT", " "),
    "default-timeout": ("UV_HTTP_TIMEOUT", " "),
}


def pip_config() -> dict[str, str]:
    """pip's effective options (files, then environment), from `pip config list`."""
    listed = subprocess.run(
        [sys.executable, "-m", "pip", "config", "list"], capture_output=True, text=True
    )
    found: dict[str, str] = {}
    for line in listed.stdout.splitlines():
        name, sep, value = line.partition("=")
        if not sep or "." not in name:
            continue
        section, option = name.rsplit(".", 1)
        if section in ("global", "install", ":env:"):
            found[option] = value.strip().strip("'\"")
    return found


def uv_exports(config: dict[str, str], environ: dict[str, str]) -> dict[str, str]:
    """The uv variables that carry pip's options, leaving alone those already set."""
    exports: dict[str, str] = {}
    for option, value in config.items():
        if option not in OPTIONS or not value:
            continue
        variable, separator = OPTIONS[option]
        if variable not in environ:
            exports[variable] = separator.join(value.split())
    if exports.keys() & {"UV_INDEX", "UV_FIND_LINKS"} and "UV_INDEX_STRATEGY" not in environ:
        # pip picks the best version across every index; uv's default stops at the first.
        exports["UV_INDEX_STRATEGY"] = "unsafe-best-match"
    return exports


if __name__ == "__main__":
    import os

    for variable, value in uv_exports(pip_config(), dict(os.environ)).items():
        print(f"export {variable}={shlex.quote(value)}")
