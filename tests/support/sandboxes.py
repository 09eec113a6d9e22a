"""Sandboxes for tests: bubblewrap with small limits, failing clearly where it cannot run."""

import os
from collections.abc import Callable

import pytest

from integrations.workspace.sandbox import Limits, Sandbox, SandboxUnavailable

# A second of CPU was too little for pytest itself on a slow machine (fresh clone, no bytecode).
SMALL = Limits(memory_mb=512, processes=64, cpu_seconds=5, output_bytes=1024 * 1024)


def working_sandbox(limits: Limits = SMALL) -> Sandbox:
    """A bubblewrap sandbox with these limits; fails the test with what to do when unusable."""
    advice = "(`make install` installs bubblewrap where it can)"
    return _usable(limits, lambda why: pytest.fail(f"{why} {advice}"))


def root_sandbox(limits: Limits = SMALL) -> Sandbox:
    """A bubblewrap sandbox run by root, whose runs each get a uid of their own; the test is
    skipped, saying why, where bubblewrap or root is not to be had."""
    if os.geteuid() != 0:
        pytest.skip("a uid of its own per run needs a worker running as root")
    return _usable(limits, lambda why: pytest.skip(f"bubblewrap cannot run here: {why}"))


def _usable(limits: Limits, give_up: Callable[[str], object]) -> Sandbox:
    sandbox = Sandbox(mode="bwrap", limits=limits)
    try:
        sandbox.check()
    except SandboxUnavailable as err:
        give_up(str(err))
    return sandbox
