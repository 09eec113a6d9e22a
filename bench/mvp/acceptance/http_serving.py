"""Starting a project's server for an acceptance script, and stopping it."""

import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

WAIT_S = 20.0


@contextmanager
def serving(module: str, url: str) -> Iterator[subprocess.Popen[str]]:
    """`python -m module` running until its URL answers (or WAIT_S passes); stopped after.
    Its output goes to a file, not a pipe nobody reads that a chatty server would fill."""
    log = (Path(__file__).resolve().parent / f"{module}-server.log").open("w")  # noqa: SIM115
    server = subprocess.Popen([sys.executable, "-m", module], stdout=log, stderr=log, text=True)
    deadline = time.monotonic() + WAIT_S
    try:
        while time.monotonic() < deadline and server.poll() is None:
            try:
                urllib.request.urlopen(url, timeout=2).close()
                break
            except urllib.error.HTTPError:
                break  # it answers, if not with 200
            except OSError:
                time.sleep(0.2)
        yield server
    finally:
        server.terminate()
        try:
            server.wait(timeout=5)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()


def fetch(url: str, data: bytes | None = None, content_type: str = "") -> tuple[int, str]:
    """The status and body of one request."""
    headers = {"Content-Type": content_type} if content_type else {}
    request = urllib.request.Request(url, data=data, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as reply:
            return reply.status, reply.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as err:
        return err.code, err.read().decode("utf-8", "replace")
