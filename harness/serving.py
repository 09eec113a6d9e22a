"""An ASGI app served over real HTTP on a free port, in a thread of the calling process."""

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Literal

import uvicorn

from harness.processes import free_port


@contextmanager
def served(
    app: Any,
    host: str = "127.0.0.1",
    ready_timeout_s: float = 10,
    lifespan: Literal["auto", "on", "off"] = "auto",
) -> Iterator[int]:
    """Serve the app on `host` (uvicorn in a thread) until the block ends; yields its port."""
    port = free_port()
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", lifespan=lifespan)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name=f"uvicorn-{port}", daemon=True)
    thread.start()
    deadline = time.monotonic() + ready_timeout_s
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError(f"the app did not start serving on port {port}")
        time.sleep(0.01)
    try:
        yield port
    finally:
        server.should_exit = True
        thread.join(timeout=10)


@contextmanager
def serve(app: Any, ready_timeout_s: float = 10) -> Iterator[str]:
    """Serve an ASGI app on the loopback address; yields its URL."""
    with served(app, ready_timeout_s=ready_timeout_s) as port:
        yield f"http://127.0.0.1:{port}"
