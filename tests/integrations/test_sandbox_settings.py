"""The sandbox the settings describe: the modes they take are the sandbox's, their limits its."""

from typing import get_args

from config import Settings
from integrations.workspace.sandbox import SandboxMode, sandbox_from


def test_the_settings_take_the_sandbox_modes() -> None:
    assert get_args(Settings.model_fields["sandbox"].annotation) == get_args(SandboxMode)


def test_the_settings_limits_and_uids_reach_the_sandbox() -> None:
    settings = Settings(
        _env_file=None,  # type: ignore[call-arg]
        sandbox="none",
        sandbox_memory_mb=512,
        sandbox_max_processes=32,
        sandbox_cpu_seconds=60,
        sandbox_output_mb=2,
        sandbox_uid_base=3_000_000,
        sandbox_uid_count=16,
    )
    sandbox = sandbox_from(settings)
    assert sandbox.mode == "none"
    assert (sandbox.limits.memory_mb, sandbox.limits.processes) == (512, 32)
    assert (sandbox.limits.cpu_seconds, sandbox.limits.output_bytes) == (60, 2 * 1024 * 1024)
    assert sandbox.uids is not None
    assert (sandbox.uids.base, sandbox.uids.count) == (3_000_000, 16)
