"""The embedded stack's parts: its processes, their environment and readiness checks."""

import os
import socket
import subprocess
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

import httpx

from config import Settings
from localmodel.provider import resolved_model_provider

SEARCH_ATTRIBUTES = ("TicketKey", "Phase", "Status", "Project")


class StackError(Exception):
    """The stack cannot start; the message says why and what to do."""


class StackNotReadyError(StackError):
    """A service did not become ready before the deadline."""


@dataclass
class Service:
    """One process of the stack and how to know it is ready."""

    name: str
    argv: list[str]
    port: int | None
    ready: Callable[[], Awaitable[bool]]
    # The services that must be ready before this one starts; the rest start side by side.
    needs: tuple[str, ...] = ()
    # What this service's environment adds to the stack's (a worker's own data directory).
    env: dict[str, str] = field(default_factory=dict)
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
            "TICKETSMITH_TEMPORAL_HTTP_URL": settings.temporal_http_url,
            # The stack's own dev server takes plaintext: a temporal.toml profile or TEMPORAL_*
            # variables of the shell (a Temporal Cloud namespace) do not apply to it.
            "TICKETSMITH_TEMPORAL_ENV_CONFIG": "false",
            "TICKETSMITH_TASK_QUEUE": settings.task_queue,
            "TICKETSMITH_DATA_DIR": str(settings.data_dir),
            # Every process of the stack reads and writes the same payload store.
            "TICKETSMITH_PAYLOAD_STORE_DIR": str(settings.payload_store_path),
            "TICKETSMITH_PAYLOAD_STORE_THRESHOLD_KIB": str(settings.payload_store_threshold_kib),
            "TICKETSMITH_PROJECTS_FILE": str(settings.projects_file),
            "TICKETSMITH_WEBHOOK_PORT": str(settings.webhook_port),
            "TICKETSMITH_EMULATOR_PORT": str(settings.emulator_port),
            "TICKETSMITH_JIRA_BASE_URL": settings.jira_base_url,
            "TICKETSMITH_GITHUB_API_URL": settings.github_api_url,
            "TICKETSMITH_GIT_BASE_URL": settings.git_base_url,
            "TICKETSMITH_DISCORD_BASE_URL": settings.discord_base_url,
            "TICKETSMITH_AGENT_TASK_QUEUE": settings.agent_task_queue,
            "TICKETSMITH_TOOLSERVER_PORT": str(settings.toolserver_port),
            "TICKETSMITH_TOOLSERVER_URL": settings.toolserver_url,
            "TICKETSMITH_TOOLSERVER_LATENCY_MIN_SECONDS": str(
                settings.toolserver_latency_min_seconds
            ),
            "TICKETSMITH_TOOLSERVER_LATENCY_MAX_SECONDS": str(
                settings.toolserver_latency_max_seconds
            ),
            "TICKETSMITH_METRICS_PORT": str(settings.metrics_port),
            "TICKETSMITH_TICKET_GAUGE_SECONDS": str(settings.ticket_gauge_seconds),
            "TICKETSMITH_CODEC_PORT": str(settings.codec_port),
            "TICKETSMITH_MODEL_PROVIDER": resolved_model_provider(settings),
            "TICKETSMITH_MODELS_DIR": str(settings.models_dir),
            "TICKETSMITH_LOCAL_MODEL_PORT": str(settings.local_model_port),
            "PYTHONUNBUFFERED": "1",
        }
    )
    for name in ("jira_token", "github_token", "encryption_keys", "admin_token"):
        secret = getattr(settings, name)
        if name == "github_token" and settings.github_app_id is not None:
            continue  # a GitHub App instead (below): both would be refused
        if secret is not None:
            env[f"TICKETSMITH_{name.upper()}"] = secret.get_secret_value()
    if settings.github_app_id is not None:
        env["TICKETSMITH_GITHUB_APP_ID"] = settings.github_app_id
        if (key_path := settings.github_app_private_key_path) is not None:
            env["TICKETSMITH_GITHUB_APP_PRIVATE_KEY_PATH"] = str(key_path)
        if settings.github_app_private_key is not None:
            env["TICKETSMITH_GITHUB_APP_PRIVATE_KEY"] = (
                settings.github_app_private_key.get_secret_value()
            )
    if settings.otel_endpoint:
        env["TICKETSMITH_OTEL_ENDPOINT"] = settings.otel_endpoint
    if settings.webhook_secret is not None:
        env["TICKETSMITH_WEBHOOK_SECRET"] = settings.webhook_secret.get_secret_value()
    else:
        env.pop("TICKETSMITH_WEBHOOK_SECRET", None)
    env["TICKETSMITH_WEBHOOK_ALLOW_UNSIGNED"] = str(settings.webhook_allow_unsigned)
    env["TICKETSMITH_ADMIN_ALLOW_UNAUTHENTICATED"] = str(settings.admin_allow_unauthenticated)
    # The Jira emulator sends its webhooks to the stack's webhook app unless told otherwise.
    webhook_app = f"http://{settings.webhook_host}:{settings.webhook_port}/webhooks/jira"
    env["TICKETSMITH_EMULATOR_WEBHOOK_URL"] = settings.emulator_webhook_url or webhook_app
    github_app = f"http://{settings.webhook_host}:{settings.webhook_port}/webhooks/github"
    env["TICKETSMITH_EMULATOR_GITHUB_WEBHOOK_URL"] = (
        settings.emulator_github_webhook_url or github_app
    )
    gitlab_app = f"http://{settings.webhook_host}:{settings.webhook_port}/webhooks/gitlab"
    env["TICKETSMITH_EMULATOR_GITLAB_WEBHOOK_URL"] = (
        settings.emulator_gitlab_webhook_url or gitlab_app
    )
    env["TICKETSMITH_EMULATOR_CI"] = str(settings.emulator_ci)
    env["TICKETSMITH_EMULATOR_CI_REPORTER"] = settings.emulator_ci_reporter
    if settings.toolserver_docs_dir is not None:
        env["TICKETSMITH_TOOLSERVER_DOCS_DIR"] = str(settings.toolserver_docs_dir)
    if settings.toolserver_fault_seed is not None:
        env["TICKETSMITH_TOOLSERVER_FAULT_SEED"] = str(settings.toolserver_fault_seed)
    if settings.toolserver_faults_file is not None:
        env["TICKETSMITH_TOOLSERVER_FAULTS_FILE"] = str(settings.toolserver_faults_file)
    if settings.emulator_seed_file is not None:
        env["TICKETSMITH_EMULATOR_SEED_FILE"] = str(settings.emulator_seed_file)
    if settings.emulator_faults_file is not None:
        env["TICKETSMITH_EMULATOR_FAULTS_FILE"] = str(settings.emulator_faults_file)
    env["TICKETSMITH_JIRA_START_LABEL"] = settings.jira_start_label
    env["TICKETSMITH_EMULATOR_JIRA_SERVER_WEBHOOKS"] = str(settings.emulator_jira_server_webhooks)
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
