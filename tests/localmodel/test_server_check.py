"""`make local-model` runs the server it built once, and builds it without AMX."""

import os
import stat
import sys
from pathlib import Path

import pytest

from localmodel.build import WITHOUT_AMX, BuildError, check_server_answers, without_amx
from localmodel.layout import Layout
from tests.localmodel.conftest import fake_install

HEALTHY_SERVER = f"""#!{sys.executable}
import http.server, sys
port = int(sys.argv[sys.argv.index("--port") + 1])
class Health(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200 if self.path == "/health" else 404)
        self.end_headers()
    def log_message(self, *args):
        pass
http.server.HTTPServer(("127.0.0.1", port), Health).serve_forever()
"""


def with_server(layout: Layout, script: str) -> Layout:
    """The fake installation with this script as its llama-server."""
    binary = layout.server_binary
    assert binary is not None
    binary.write_text(script)
    binary.chmod(binary.stat().st_mode | stat.S_IEXEC)
    return layout


def test_a_server_that_loads_the_model_passes(tmp_path: Path) -> None:
    said: list[str] = []
    check_server_answers(with_server(fake_install(tmp_path), HEALTHY_SERVER), said.append)
    assert said[-1].startswith("the server answered in")


def test_a_server_killed_by_an_illegal_instruction_says_to_rebuild(tmp_path: Path) -> None:
    layout = with_server(fake_install(tmp_path), "#!/bin/sh\necho loading >&2\nkill -ILL $$\n")
    with pytest.raises(BuildError) as raised:
        check_server_answers(layout, lambda line: None)
    message = str(raised.value)
    assert "died of SIGILL" in message and "an instruction this CPU will not run" in message
    assert f"remove {layout.server_venv} and run `make local-model` again" in message
    assert message.endswith("loading")


def test_a_server_that_cannot_start_is_named(tmp_path: Path) -> None:
    layout = fake_install(tmp_path)  # its llama-server is not executable
    with pytest.raises(BuildError, match="cannot start .*llama-server"):
        check_server_answers(layout, lambda line: None)


def compiler(tmp_path: Path, exit_code: int) -> str:
    """A C compiler that accepts (exit 0) or refuses every command line."""
    path = tmp_path / f"cc{exit_code}"
    path.write_text(f"#!/bin/sh\nexit {exit_code}\n")
    path.chmod(0o755)
    return str(path)


def test_the_build_leaves_amx_out_where_the_compiler_knows_how(tmp_path: Path) -> None:
    env = {"CC": compiler(tmp_path, 0), "CFLAGS": "-O2", "PATH": os.environ["PATH"]}
    flags = without_amx(env)
    assert flags["CFLAGS"] == "-O2 " + " ".join(WITHOUT_AMX)
    assert flags["CXXFLAGS"] == " ".join(WITHOUT_AMX)
    assert without_amx({**env, "CC": compiler(tmp_path, 1)}) == {}
