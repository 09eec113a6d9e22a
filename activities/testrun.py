"""One run of a project's tests: its own environment (built or reused), then its command."""

from graphs.schemas import TestReport
from integrations.environments import Environment, Environments
from integrations.git import GitWorkspace
from integrations.limits import LIMIT_NAMES

UNSANDBOXED = "unsandboxed: TICKETSMITH_SANDBOX=none ran this without bubblewrap"


async def run_project_tests(
    environments: Environments, workspace: GitWorkspace, repository: str, command: str,
    timeout_s: float, setup_command: str | None = None,
) -> TestReport:  # fmt: skip
    """Build (or reuse) the checkout's environment, then run the test command in it."""
    env = await environments.ensure(workspace.root, repository, setup_command)
    if env.error or env.path is None:
        return TestReport(
            passed=False,
            exit_code=-1,
            output=f"{env.error}\n\n{footer(env, sandboxed=environments.sandboxed)}",
            environment=env.description,
            environment_error=env.error,
            sandboxed=environments.sandboxed,
        )
    result = await workspace.run_command(
        command, timeout_s, env_dir=env.path, sandbox=environments.sandbox
    )
    limit = LIMIT_NAMES[result.limit] if result.limit else None
    return TestReport(
        passed=result.exit_code == 0 and not result.timed_out and result.limit is None,
        exit_code=result.exit_code,
        output=f"{result.output.rstrip()}\n\n{footer(env, result.sandboxed)}",
        timed_out=result.timed_out,
        duration_seconds=result.duration_s,
        environment=env.description,
        limit=limit,
        sandboxed=result.sandboxed,
    )


def footer(env: Environment, sandboxed: bool) -> str:
    """The lines every test report ends with: the environment and whether it was sandboxed."""
    where = "sandbox: bubblewrap, no network" if sandboxed else UNSANDBOXED
    return f"[{env.report()}]\n[{where}]"
