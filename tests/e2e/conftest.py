"""The embedded stack as processes on free ports and a private data directory, per module."""

import socket
from collections.abc import AsyncIterator

import pytest

from config import Settings
from stack import Stack


def free_port() -> int:
    """A port nothing listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="module")
async def stack(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Stack]:
    """The whole embedded stack on free ports and a private data directory."""
    data = tmp_path_factory.mktemp("stack")
    emulator_port = free_port()
    projects = data / "projects.toml"
    projects.write_text(
        "[projects.DEMO]\n"
        'repository = "demo/calc"\n'
        "implement_after_approval = true\n"
        f'discord_webhook_url = "http://127.0.0.1:{emulator_port}/api/webhooks/1/tok"\n'
    )
    settings = Settings(
        data_dir=data,
        projects_file=projects,
        temporal_address=f"127.0.0.1:{free_port()}",
        temporal_ui_port=free_port(),
        webhook_port=free_port(),
        emulator_port=emulator_port,
        metrics_port=free_port(),
        task_queue="e2e",
    )
    running = Stack(settings, reset_emulators=True)
    try:
        await running.start()
        yield running
    finally:
        running.stop()
