"""Leaving a process that ran a Temporal runtime, without the interpreter's teardown.

The Temporal core's native threads can outlive the event loop and abort a finalizing
interpreter (temporalio/sdk-python#300), turning a clean drain's exit status 0 into SIGABRT.
"""

import asyncio
import logging
import os
import sys
from collections.abc import Callable, Coroutine
from typing import Any


def exit_code(stopped: SystemExit) -> int:
    """The process's exit status for a SystemExit, its message said on stderr as Python does."""
    if stopped.code is None or isinstance(stopped.code, int):
        return stopped.code or 0
    sys.stderr.write(f"{stopped.code}\n")
    return 1


def run_then_exit(main: Callable[[], Coroutine[Any, Any, None]]) -> None:
    """Run `main` to its end, flush logs and output, and exit at once with its status."""
    try:
        asyncio.run(main())
        code = 0
    except SystemExit as stopped:
        code = exit_code(stopped)
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)
