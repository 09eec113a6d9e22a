"""The local model server in the embedded stack: command line, readiness, stop."""

import sys
from pathlib import Path

import pytest

from config import Settings
from embedded.stack import Stack, StackError, child_env
from harness.processes import free_port
from localmodel.layout import Layout
from localmodel.server import (
    LocalModelMissingError,
    describe_model,
    server_argv,
    server_ready,
)

FAKE_SERVER = """#!{python}
import http.server, sys
port = int(sys.argv[sys.argv.index("--port") + 1])
class Health(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200 if self.path == "/health" else 404)
        self.end_headers()
        self.wfile.write(b'{{"status": "ok"}}')
    def log_message(self, *args):
        pass
http.server.HTTPServer(("127.0.0.1", port), Health).serve_forever()
"""


def local_settings(models_dir: Path, tmp_path: Path) -> Settings:
    return Settings(
        model_provider="local",
        models_dir=models_dir,
        local_model_port=free_port(),
        temporal_ui_port=free_port(),
        temporal_http_port=free_port(),
        metrics_port=free_port(),
        data_dir=tmp_path / "data",
    )


def test_the_server_runs_one_slot_with_the_whole_context(installed: Layout, tmp_path: Path) -> None:
    settings = local_settings(installed.models_dir, tmp_path)
    argv = server_argv(settings)
    assert argv[0] == str(installed.server_binary)
    assert argv[argv.index("-m") + 1] == str(installed.model_file)
    assert argv[argv.index("-c") + 1] == "4096" and argv[argv.index("-np") + 1] == "1"
    assert argv[argv.index("--port") + 1] == str(settings.local_model_port)
    assert "local: Qwen2.5-Coder-1.5B-Instruct" in describe_model(settings)


def test_each_slot_keeps_the_whole_context(installed: Layout, tmp_path: Path) -> None:
    settings = local_settings(installed.models_dir, tmp_path).model_copy(
        update={"local_model_slots": 2}
    )
    argv = server_argv(settings)
    assert argv[argv.index("-c") + 1] == "8192" and argv[argv.index("-np") + 1] == "2"


def test_a_missing_model_says_how_to_install_it(tmp_path: Path) -> None:
    settings = local_settings(tmp_path / "empty", tmp_path)
    with pytest.raises(LocalModelMissingError, match="make local-model"):
        server_argv(settings)
    with pytest.raises(StackError, match="make local-model"):
        Stack(settings)


def test_the_stack_runs_the_server_only_for_the_local_provider(
    installed: Layout, tmp_path: Path
) -> None:
    settings = local_settings(installed.models_dir, tmp_path)
    names = [service.name for service in Stack(settings).services]
    assert names[-2:] == ["local-model", "worker"]
    assert child_env(settings)["TICKETSMITH_MODEL_PROVIDER"] == "local"
    offline = settings.model_copy(update={"model_provider": "offline"})
    assert "local-model" not in [service.name for service in Stack(offline).services]


async def test_the_stack_waits_for_the_server_and_stops_it(
    installed: Layout, tmp_path: Path
) -> None:
    assert installed.server_binary is not None
    installed.server_binary.write_text(FAKE_SERVER.format(python=sys.executable))
    installed.server_binary.chmod(0o755)
    settings = local_settings(installed.models_dir, tmp_path)
    stack = Stack(settings)
    stack.services = [s for s in stack.services if s.name == "local-model"]
    assert not await server_ready(settings)
    try:
        await stack.start()
        assert await server_ready(settings)
    finally:
        stack.stop()
    process = stack.services[0].process
    assert process is not None and process.poll() is not None
    assert not await server_ready(settings)
