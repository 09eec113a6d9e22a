"""Each repository's own virtual environment, built with uv in the set-up sandbox and cached.

The cache key is the hash of the repository's dependency files, so a second ticket on the
same repository (or a second test run) reuses the environment. The build is the only
workspace command with a way out, and only to the package indexes: in the sandbox it reaches the
network through the egress proxy (integrations/environments/egress.py); tests then run offline in
the finished environment.
"""

import asyncio
import contextlib
import shlex
import shutil
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from pydantic import BaseModel

from integrations.environments.detect import EnvironmentRecipe, detect_environment
from integrations.environments.egress import EgressPolicy, EgressProxy, proxy_free_env
from integrations.environments.indexes import PackageSources, package_sources
from integrations.workspace.commands import SYSTEM_PATH, CommandResult, run_command
from integrations.workspace.sandbox import MOUNT_POINT, Mounts, Sandbox

READY = ".ticketsmith-ready"
LOCKED_REQUIREMENTS = "locked-requirements.txt"
TAIL_LINES = 30
BRIDGE = Path(__file__).with_name("egress_bridge.py")
ALLOW_SETTING = "TICKETSMITH_SETUP_ALLOWED_HOSTS"


class Environment(BaseModel):
    """A repository's environment: where it is, how it was made, or why it could not be."""

    path: Path | None = None
    description: str
    python: str = ""
    reused: bool = False
    setup_seconds: float = 0.0
    error: str | None = None
    # host:port set-up tried to reach that is not a package index (refused by the proxy).
    refused: list[str] = []

    def report(self) -> str:
        """One line for test reports (and one more per connection set-up was refused)."""
        refusals = "".join(f"\nset-up tried to reach {where}: refused" for where in self.refused)
        if self.error:
            return f"environment: could not be built ({self.description}){refusals}"
        how = "reused from the cache" if self.reused else "built"
        how = f"{how} in {self.setup_seconds:.2f}s"
        return f"environment: {self.description}; {self.python}; {how}{refusals}"


def uv_binary() -> Path:
    """The uv that came with ticketsmith (the `uv` package), else one on PATH."""
    beside = Path(sys.executable).parent / "uv"
    found = beside if beside.is_file() else shutil.which("uv")
    if not found:
        raise FileNotFoundError("uv is not installed: `pip install uv` (a ticketsmith dependency)")
    return Path(found)


class Environments:
    """Builds and caches environments under `root`, one folder per repository."""

    def __init__(
        self,
        root: Path,
        sandbox: Sandbox,
        timeout_s: float = 900,
        allowed_hosts: Sequence[str] = (),
    ) -> None:
        self._root = root
        self._sandbox = sandbox
        self._timeout = timeout_s
        self._allowed_hosts = tuple(allowed_hosts)
        self._locks: dict[Path, asyncio.Lock] = {}

    @property
    def sandboxed(self) -> bool:
        """True when set-up and tests run in bubblewrap."""
        return self._sandbox.sandboxed

    @property
    def sandbox(self) -> Sandbox:
        """The sandbox commands in these environments run in."""
        return self._sandbox

    async def ensure(
        self, checkout: Path, repository: str, setup_command: str | None = None
    ) -> Environment:
        """The environment for the checkout: from the cache, else built now."""
        started = time.monotonic()
        recipe = detect_environment(checkout, setup_command)
        home = self._root / repository.replace("/", "--")
        target = home / recipe.key
        async with self._locks.setdefault(target, asyncio.Lock()):
            if (target / READY).is_file():
                python = (target / READY).read_text().strip()
                return Environment(
                    path=target,
                    description=recipe.describe(),
                    python=python,
                    reused=True,
                    setup_seconds=round(time.monotonic() - started, 3),
                )
            return await self._build(checkout, recipe, home, target, started)

    async def _build(
        self, checkout: Path, recipe: EnvironmentRecipe, home: Path, target: Path, started: float
    ) -> Environment:
        shutil.rmtree(target, ignore_errors=True)  # a half-built one from a crash
        target.mkdir(parents=True)
        (home / "uv-cache").mkdir(exist_ok=True)
        sources = package_sources()
        proxy = None
        if self._sandbox.sandboxed:
            proxy = EgressProxy(EgressPolicy.for_sources(sources.env, self._allowed_hosts))
        async with proxy or contextlib.nullcontext():
            built = await self._install(checkout, recipe, home, target, started, sources, proxy)
        if proxy is not None and proxy.refused:
            built.refused = list(proxy.refused)
            if built.error:
                built.error += _refusal_advice(proxy)
        return built

    async def _install(
        self,
        checkout: Path,
        recipe: EnvironmentRecipe,
        home: Path,
        target: Path,
        started: float,
        sources: PackageSources,
        proxy: EgressProxy | None,
    ) -> Environment:
        uv = str(MOUNT_POINT / "uv") if self._sandbox.sandboxed else str(uv_binary())
        files = {uv_binary(): MOUNT_POINT / "uv"}
        if proxy is not None:
            files |= {
                proxy.socket_path: MOUNT_POINT / "egress.sock",
                BRIDGE: MOUNT_POINT / BRIDGE.name,
            }
        mounts = Mounts(writable=[target, home / "uv-cache"], readable=sources.paths, files=files)
        env = {
            **(proxy_free_env(sources.env) if proxy else sources.env),
            "UV_CACHE_DIR": str(home / "uv-cache"),
            "UV_PYTHON_DOWNLOADS": "never",
            "UV_NO_PROGRESS": "1",
            "VIRTUAL_ENV": str(target),
            # `uv` by name for a project's setup_command; the environment's bin/ for its tools.
            "PATH": f"{target / 'bin'}:{Path(uv).parent}:{SYSTEM_PATH}",
        }
        if "UV_INDEX" in env:
            env.setdefault("UV_INDEX_STRATEGY", "unsafe-best-match")  # as pip chooses
        note = ""
        # --no-project: the Python asked for is passed here, or deliberately not on the retry.
        create = [uv, "venv", "--quiet", "--no-project", str(target)]
        steps = [("create the virtual environment", create)]
        if recipe.python:
            steps[0][1].extend(["--python", recipe.python])
        for what, argv in [*steps, *_install_steps(recipe, uv, target)]:
            result = await self._run(checkout, self._outbound(argv, proxy), mounts, env, started)
            if result.exit_code != 0 and what.startswith("create") and recipe.python:
                note = f"Python {recipe.python} was requested but is not available here; "
                retry = self._outbound(argv[:-2], proxy)
                result = await self._run(checkout, retry, mounts, env, started)
            if result.exit_code != 0:
                shutil.rmtree(target, ignore_errors=True)
                return _failure(recipe, what, argv, result)
        python = note + await self._python_version(checkout, target, mounts, env, started)
        (target / READY).write_text(python + "\n")
        elapsed = round(time.monotonic() - started, 3)
        return Environment(
            path=target, description=recipe.describe(), python=python, setup_seconds=elapsed
        )

    async def _run(
        self, checkout: Path, argv: list[str], mounts: Mounts, env: dict[str, str], started: float
    ) -> CommandResult:
        remaining = max(1.0, self._timeout - (time.monotonic() - started))
        return await run_command(
            checkout,
            argv,
            remaining,
            sandbox=self._sandbox.for_setup(self._timeout),
            network=not self._sandbox.sandboxed,  # sandboxed, it goes out through the proxy
            extra_env=env,
            mounts=mounts,
        )

    @staticmethod
    def _outbound(argv: list[str], proxy: EgressProxy | None) -> list[str]:
        """The command run behind the bridge to the egress proxy (unchanged without one)."""
        if proxy is None:
            return argv
        python = shutil.which("python3", path=SYSTEM_PATH)
        if python is None:
            raise FileNotFoundError(
                f"set-up needs a python3 on {SYSTEM_PATH} for its way to the package index"
            )
        bridge = str(MOUNT_POINT / BRIDGE.name)
        return [python, "-I", bridge, str(MOUNT_POINT / "egress.sock"), "--", *argv]

    async def _python_version(
        self, checkout: Path, target: Path, mounts: Mounts, env: dict[str, str], started: float
    ) -> str:
        script = "import platform; print(platform.python_version())"
        argv = [str(target / "bin" / "python"), "-c", script]
        result = await self._run(checkout, argv, mounts, env, started)
        version = result.output.strip().splitlines()[-1:] if result.exit_code == 0 else []
        return f"Python {version[0]}" if version else "Python (version unknown)"


def _install_steps(recipe: EnvironmentRecipe, uv: str, target: Path) -> list[tuple[str, list[str]]]:
    """The install commands of a recipe (a project's own setup_command replaces them)."""
    if recipe.setup_command:
        return [("run the project's setup_command", shlex.split(recipe.setup_command))]
    install = [uv, "pip", "install", "--quiet", "--python", str(target / "bin" / "python")]
    argv = [*install, *recipe.requirements]
    for name in recipe.requirement_files:
        argv += ["-r", name]
    steps = []
    if recipe.uv_export is not None:
        # uv reads its own lock: markers, per-Python versions, git and path sources, and the
        # project and its workspace members as editable installs (`-e .`).
        locked = target / LOCKED_REQUIREMENTS
        export = [uv, "export", "--quiet", *recipe.uv_export, "--output-file", str(locked)]
        steps.append(("export uv.lock's requirements", export))
        argv += ["-r", str(locked)]
    steps.append(("install the declared dependencies", argv))
    if recipe.install_project and recipe.uv_export is None:
        steps.append(
            ("install the project (editable, after its dependencies)", [*install, "-e", "."])
        )
    return steps


def _refusal_advice(proxy: EgressProxy) -> str:
    """What to do when set-up failed after being refused a host it may have needed."""
    refused = ", ".join(proxy.refused)
    return (
        f"\nSet-up tried to reach {refused}, which is not a package index it may use "
        f"(allowed: {proxy.policy.describe()}). If the project needs it, add it to "
        f"{ALLOW_SETTING}."
    )


def _failure(
    recipe: EnvironmentRecipe, what: str, argv: list[str], result: CommandResult
) -> Environment:
    tail = "\n".join(result.output.strip().splitlines()[-TAIL_LINES:])
    command = " ".join(Path(argv[0]).name if i == 0 else a for i, a in enumerate(argv))
    reason = f"stopped by its {result.limit.replace('_', ' ')} limit" if result.limit else ""
    error = (
        f"The repository's environment could not be built: {what} failed "
        f"(`{command[:300]}`, exit code {result.exit_code}{', ' + reason if reason else ''}).\n"
        f"Installer output (last lines):\n{tail}"
    )
    return Environment(description=recipe.describe(), error=error)
