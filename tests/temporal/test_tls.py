"""Every client connects to a secured Temporal as Temporal's own tools do: a dev server behind a
TLS proxy that requires a client certificate from a test CA, configured by `TEMPORAL_TLS_*`
variables or a temporal.toml profile; a bad setting is one sentence naming it."""

import asyncio
import os
import subprocess
import sys
import uuid
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from temporalio import workflow
from temporalio.client import Client
from temporalio.service import TLSConfig
from temporalio.testing import WorkflowEnvironment
from temporalio.worker import UnsandboxedWorkflowRunner, Worker

from bench.support.stack import pollers
from config import ROOT, Settings
from harness.processes import guard_children, until
from temporal import connection as temporal_connection
from temporal.client import connect_temporal
from temporal.connection import TemporalConfigError
from tests.conftest import venv_binary
from tests.support.tls_proxy import CertificateAuthority, Identity, TlsProxy, tls_proxy


@workflow.defn(name="Greeting")
class Greeting:
    """Waits to be released; its query answers meanwhile."""

    def __init__(self) -> None:
        self.released = False

    @workflow.run
    async def run(self, name: str) -> str:
        await workflow.wait_condition(lambda: self.released)
        return f"hello {name}"

    @workflow.query
    def greeting(self) -> str:
        return "waiting"

    @workflow.signal
    def release(self) -> None:
        self.released = True


@dataclass(frozen=True)
class Certificates:
    """The test CA, the proxy's certificate, a client's and a stranger's (another CA's)."""

    ca: Path
    other_ca: Path
    server: Identity
    client: Identity
    stranger: Identity


@pytest.fixture(scope="module")
def certificates(tmp_path_factory: pytest.TempPathFactory) -> Certificates:
    folder = tmp_path_factory.mktemp("tls")
    ca, other = CertificateAuthority(folder, "test-ca"), CertificateAuthority(folder, "other-ca")
    return Certificates(
        ca=ca.identity.cert,
        other_ca=other.identity.cert,
        server=ca.issue("server", server=True),
        client=ca.issue("client", server=False),
        stranger=other.issue("stranger", server=False),
    )


@pytest.fixture(scope="module")
async def dev_server() -> AsyncIterator[str]:
    """A plaintext dev server; its gRPC address."""
    env = await WorkflowEnvironment.start_local(
        dev_server_existing_path=venv_binary("temporal"), dev_server_extra_args=["--headless"]
    )
    guard_children()
    async with env:
        yield env.client.service_client.config.target_host


@pytest.fixture(scope="module")
def mtls(dev_server: str, certificates: Certificates) -> Iterator[TlsProxy]:
    """TLS in front of the dev server, requiring a client certificate from the test CA."""
    with tls_proxy(dev_server, certificates.server, client_ca=certificates.ca) as proxy:
        yield proxy


@pytest.fixture(scope="module")
def tls_only(dev_server: str, certificates: Certificates) -> Iterator[TlsProxy]:
    """TLS in front of the dev server, no client certificate asked (API keys)."""
    with tls_proxy(dev_server, certificates.server, client_ca=None) as proxy:
        yield proxy


def mtls_variables(proxy: TlsProxy, certs: Certificates, client: Identity) -> dict[str, str]:
    """What a user of a cluster secured with mTLS sets."""
    return {
        "TEMPORAL_ADDRESS": proxy.address,
        "TEMPORAL_TLS_SERVER_CA_CERT_PATH": str(certs.ca),
        "TEMPORAL_TLS_CLIENT_CERT_PATH": str(client.cert),
        "TEMPORAL_TLS_CLIENT_KEY_PATH": str(client.key),
    }


def set_env(monkeypatch: pytest.MonkeyPatch, variables: dict[str, str]) -> Settings:
    for name, value in variables.items():
        monkeypatch.setenv(name, value)
    return Settings(_env_file=None)  # type: ignore[call-arg]


async def greet_and_query(client: Client) -> tuple[str, str]:
    """Start a workflow, query it, release it: its query answer and its result."""
    queue = f"tls-{uuid.uuid4()}"
    async with Worker(
        client, task_queue=queue, workflows=[Greeting], workflow_runner=UnsandboxedWorkflowRunner()
    ):
        handle = await client.start_workflow(
            Greeting.run, "tls", id=f"greeting-{uuid.uuid4()}", task_queue=queue
        )
        answer = await handle.query(Greeting.greeting)
        await handle.signal(Greeting.release)
        return answer, await handle.result()


async def test_start_and_query_over_mtls_from_temporal_tls_variables(
    mtls: TlsProxy, certificates: Certificates, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = set_env(monkeypatch, mtls_variables(mtls, certificates, certificates.client))
    assert settings.temporal_address == mtls.address
    assert settings.temporal_http_url == "off"  # `status` and `list` read over gRPC, with TLS
    client = await connect_temporal(settings)
    assert isinstance(client.service_client.config.tls, TLSConfig)
    assert await greet_and_query(client) == ("waiting", "hello tls")


async def test_a_temporal_toml_profile_connects_and_our_namespace_wins(
    mtls: TlsProxy, certificates: Certificates, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    profile = tmp_path / "temporal.toml"
    profile.write_text(
        f'[profile.secured]\naddress = "{mtls.address}"\nnamespace = "elsewhere"\n'
        f'[profile.secured.tls]\nserver_ca_cert_path = "{certificates.ca}"\n'
        f'client_cert_path = "{certificates.client.cert}"\n'
        f'client_key_path = "{certificates.client.key}"\n'
    )
    settings = set_env(
        monkeypatch,
        {
            "TEMPORAL_CONFIG_FILE": str(profile),
            "TEMPORAL_PROFILE": "secured",
            "TICKETSMITH_TEMPORAL_NAMESPACE": "default",
        },
    )
    assert (settings.temporal_address, settings.temporal_namespace) == (mtls.address, "default")
    client = await connect_temporal(settings)
    assert await greet_and_query(client) == ("waiting", "hello tls")


@pytest.mark.parametrize(
    ("change", "named", "why"),
    [
        ("stranger", "TEMPORAL_TLS_CLIENT_CERT_PATH", "refuses the client certificate"),
        ("other_ca", "TEMPORAL_TLS_SERVER_CA_CERT_PATH", "not signed by"),
        ("no_key", "TEMPORAL_TLS_CLIENT_KEY_PATH", "cannot be read: No such file"),
        ("foreign_key", "TEMPORAL_TLS_CLIENT_KEY_PATH", "does not belong to the certificate"),
    ],
)
async def test_a_bad_tls_setting_is_one_sentence_naming_it(
    change: str,
    named: str,
    why: str,
    mtls: TlsProxy,
    certificates: Certificates,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    variables = mtls_variables(mtls, certificates, certificates.client)
    if change == "stranger":
        variables |= mtls_variables(mtls, certificates, certificates.stranger)
    elif change == "other_ca":
        variables["TEMPORAL_TLS_SERVER_CA_CERT_PATH"] = str(certificates.other_ca)
    elif change == "no_key":
        variables["TEMPORAL_TLS_CLIENT_KEY_PATH"] = str(tmp_path / "missing-key.pem")
    else:
        variables["TEMPORAL_TLS_CLIENT_KEY_PATH"] = str(certificates.stranger.key)
    settings = set_env(monkeypatch, variables)
    with pytest.raises(TemporalConfigError) as refused:
        await asyncio.wait_for(connect_temporal(settings), 60)
    message = str(refused.value)
    assert named in message and why in message, message
    assert "\n" not in message and "tonic" not in message
    assert refused.value.__cause__ is None


async def test_an_api_key_turns_tls_on_and_is_sent_but_never_logged(
    tls_only: TlsProxy, certificates: Certificates, monkeypatch: pytest.MonkeyPatch
) -> None:
    key = f"test-key-{uuid.uuid4()}"
    settings = set_env(
        monkeypatch,
        {
            "TEMPORAL_ADDRESS": tls_only.address,
            "TEMPORAL_API_KEY": key,
            "TEMPORAL_TLS_SERVER_CA_CERT_PATH": str(certificates.ca),
        },
    )
    client = await connect_temporal(settings)
    # The SDK sends it as `authorization: Bearer <key>` on every call.
    assert client.service_client.config.api_key == key
    assert isinstance(client.service_client.config.tls, TLSConfig)
    assert key not in repr(temporal_connection.connection(settings.temporal_address, "x", True))
    assert key in temporal_connection.secrets()  # the worker's logs redact it
    assert await greet_and_query(client) == ("waiting", "hello tls")


async def test_a_server_asking_for_a_client_certificate_says_so(
    mtls: TlsProxy, certificates: Certificates, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = set_env(
        monkeypatch,
        {
            "TEMPORAL_ADDRESS": mtls.address,
            "TEMPORAL_API_KEY": "a-key",
            "TEMPORAL_TLS_SERVER_CA_CERT_PATH": str(certificates.ca),
        },
    )
    with pytest.raises(TemporalConfigError, match="asks for a client certificate"):
        await asyncio.wait_for(connect_temporal(settings), 60)


async def test_tls_to_a_plaintext_server_names_what_turned_tls_on(
    dev_server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = set_env(monkeypatch, {"TEMPORAL_ADDRESS": dev_server, "TEMPORAL_API_KEY": "a-key"})
    with pytest.raises(TemporalConfigError, match="does not answer in TLS there, which "
                       "TEMPORAL_API_KEY turns on"):  # fmt: skip
        await asyncio.wait_for(connect_temporal(settings), 60)


async def test_the_worker_and_the_command_line_connect_over_mtls(
    mtls: TlsProxy, certificates: Certificates, monkeypatch: pytest.MonkeyPatch
) -> None:
    variables = mtls_variables(mtls, certificates, certificates.client)
    settings = set_env(monkeypatch, variables)
    queue = f"tls-worker-{uuid.uuid4()}"
    env = {
        **os.environ,
        "TICKETSMITH_TASK_QUEUE": queue,
        "TICKETSMITH_AGENT_TASK_QUEUE": f"{queue}-agents",
        "TICKETSMITH_METRICS_PORT": "0",
        "TICKETSMITH_TICKET_GAUGE_SECONDS": "0",
        "TICKETSMITH_SANDBOX": "none",
    }
    worker = subprocess.Popen(
        [sys.executable, "worker.py"], cwd=ROOT, env=env, stderr=subprocess.PIPE, text=True
    )
    try:
        client = await connect_temporal(settings)

        async def polling() -> bool:
            assert worker.poll() is None, worker.communicate()[1][-2000:]
            return await pollers(client, queue) > 0

        await until(polling, 180, "worker.py polling over mTLS")
        status, listed = [
            await asyncio.to_thread(
                subprocess.run,
                [sys.executable, "starter.py", *command],
                cwd=ROOT,
                env=env,
                capture_output=True,
                text=True,
                timeout=120,
            )  # fmt: skip
            for command in (["status", "NEVER-1"], ["list"])
        ]
    finally:
        worker.terminate()
        worker.communicate(timeout=60)
    # Answered by the server over gRPC and mTLS: the HTTP API is not asked.
    assert "NEVER-1 has never been started" in status.stderr, status.stderr
    assert (listed.returncode, listed.stderr) == (0, ""), listed.stderr


def test_the_worker_stops_with_one_line_naming_a_missing_key_file(
    mtls: TlsProxy, certificates: Certificates, tmp_path: Path
) -> None:
    missing = tmp_path / "gone.key"
    env = {
        **os.environ,
        **mtls_variables(mtls, certificates, certificates.client),
        "TEMPORAL_TLS_CLIENT_KEY_PATH": str(missing),
        "TICKETSMITH_METRICS_PORT": "0",
        "TICKETSMITH_SANDBOX": "none",
    }
    done = subprocess.run(
        [sys.executable, "worker.py"], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=180,
    )  # fmt: skip
    assert done.returncode == 1
    assert "Traceback" not in done.stderr, done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last == (
        f"worker not started: TEMPORAL_TLS_CLIENT_KEY_PATH ({missing}) cannot be read: "
        "No such file or directory"
    )
