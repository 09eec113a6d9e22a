"""Sandboxes for tests: bubblewrap with small limits, failing clearly where it cannot run."""

import pytest

from integrations.sandbox import Limits, Sandbox, SandboxUnavailable

# A second of CPU was too little for pytest itself on a slow machine (fresh clone, no bytecode).
SMALL = Limits(memory_mb=512, processes=64, cpu_seconds=5, output_bytes=1024 * 1024)


def working_sandbox(limits: Limits = SMALL) -> Sandbox:
    """A bubblewrap sandbox with these limits; fails the test with what to do when unusable."""
    sandbox = Sandbox(mode="bwrap", limits=limits)
    try:
        sandbox.check()
    except SandboxUnavailable as err:
        pytest.fail(f"{err} (`make install` installs bubblewrap where it can)")
    return sandbox
