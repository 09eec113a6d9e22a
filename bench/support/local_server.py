"""The local model's server for benches that drive the loop without a stack."""

import asyncio
import subprocess
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from config import Settings
from embedded.reaper import popen_bound
from localmodel.server import server_argv, server_library_path, server_ready


@asynccontextmanager
async def local_server(settings: Settings) -> AsyncIterator[subprocess.Popen[bytes]]:
    """`llama-server` as the settings describe it, once it answers; killed on the way out.

    Raises LocalModelMissingError without the model, SystemExit when it does not answer within
    the settings' ready timeout."""
    argv = server_argv(settings)
    process = popen_bound(
        argv, env={**server_library_path(settings), "PATH": "/usr/bin:/bin"},
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + settings.ready_timeout_seconds
        while not await server_ready(settings):
            if process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"llama-server did not start: {' '.join(argv)}")
            await asyncio.sleep(0.5)
        yield process
    finally:
        process.kill()
        process.wait()
