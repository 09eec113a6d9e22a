"""Settings of the workspace: the sandbox commands run in and the repository's environment."""

from pathlib import Path
from typing import Literal

from pydantic import Field

from config.common import CommonSettings


class SandboxSettings(CommonSettings):
    """How a repository's commands are confined and its environment is set up."""

    # Workspace commands run in bubblewrap; `none` runs them unsandboxed (explicitly, warned).
    # The modes of integrations/workspace/sandbox.py (`SandboxMode`), which builds the sandbox
    # from these.
    sandbox: Literal["bwrap", "none"] = "bwrap"
    sandbox_memory_mb: int = Field(default=2048, ge=64, description="address space per process")
    sandbox_max_processes: int = Field(default=256, ge=8)
    sandbox_cpu_seconds: int = Field(default=600, ge=1, description="CPU time per process")
    sandbox_output_mb: int = Field(default=16, ge=1, description="output a run may print")
    # A root worker runs each command as a uid of its own from this range (no user, container
    # or other machine-wide use may have them), so the processes limit is per run.
    sandbox_uid_base: int = Field(default=2_000_000, ge=1000, le=2_000_000_000)
    sandbox_uid_count: int = Field(default=1024, ge=1, le=65536)
    environment_setup_timeout_seconds: float = Field(default=900, gt=0)
    # Hosts set-up may reach besides the package indexes pip and uv are configured with
    # ("host" or "host:port", comma-separated), e.g. a git host the dependencies come from.
    setup_allowed_hosts: str = ""

    @property
    def workspace_dir(self) -> Path:
        """Local clones: a cache only, every activity starts from the remote."""
        return self.data_dir / "workspaces"

    @property
    def environments_dir(self) -> Path:
        """Repositories' virtual environments, cached by the hash of their dependency files."""
        return self.data_dir / "environments"

    @property
    def setup_hosts(self) -> list[str]:
        """The extra hosts set-up may reach, one entry each."""
        return self.setup_allowed_hosts.replace(",", " ").split()
