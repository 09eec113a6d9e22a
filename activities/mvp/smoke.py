"""The smoke run of a generated project: its own command, once, in the sandbox, as a first user
would type it; and the files its tests left in the project."""

from pathlib import Path

from graphs.mvp.findings import SmokeRun
from graphs.mvp.usage import Usage
from integrations.environments.build import Environments
from integrations.workspace.commands import run_command

SMOKE_TIMEOUT_S = 60.0
OUTPUT_CHARS = 2000
# What a test run leaves that is not the tests' doing: caches and the runner's reports.
RUN_LEFTOVERS = ("__pycache__", ".pytest_cache", ".ticketsmith", ".coverage")


async def smoke_run(
    environments: Environments, root: Path, repository: str, usage: Usage
) -> SmokeRun:
    """Run the project's command in its environment; a web server is asked for its URL."""
    argv = usage.smoke_argv()
    if argv is None:
        why = "a desktop window needs a display" if usage.interface == "desktop" else (
            "no command to run was planned" if not usage.command else "the command does not parse"
        )  # fmt: skip
        return SmokeRun(command=usage.command, ran=False, note=why)
    env = await environments.ensure(root, repository)
    if env.error or env.path is None:
        return SmokeRun(command=usage.command, passed=False, output=env.error or "", note="no env")
    result = await run_command(
        root, argv, SMOKE_TIMEOUT_S, env_dir=env.path, sandbox=environments.sandbox
    )
    passed = result.exit_code == 0 and not result.timed_out and result.limit is None
    note = f"timed out after {SMOKE_TIMEOUT_S:.0f} s" if result.timed_out else ""
    if passed and not result.output.strip():
        # A first user who runs the command and sees nothing cannot tell that it did anything.
        passed, note = False, "it exited 0 but printed nothing"
    return SmokeRun(
        command=usage.command,
        passed=passed,
        exit_code=result.exit_code,
        output=result.output.strip()[-OUTPUT_CHARS:],
        note=note,
    )


def project_paths(root: Path) -> set[str]:
    """The files under root, without what a test run leaves as a matter of course."""
    return {
        str(path.relative_to(root))
        for path in root.rglob("*")
        if path.is_file() and not set(path.relative_to(root).parts) & set(RUN_LEFTOVERS)
        and not path.name.endswith((".pyc", ".xml"))
    }  # fmt: skip
