"""One run of a project's tests: its own environment (built or reused), then its command."""

from activities.testing.cases import (
    import_check_command,
    import_errors,
    take_junit,
    with_cases,
    with_junit,
)
from activities.testing.instruction_checks import run_checks
from activities.testing.trace import read_traces, trace_command, traced_tests, with_traces
from graphs.schemas import TestReport
from integrations.environments.build import Environment, Environments
from integrations.git.client import GitWorkspace
from integrations.workspace.limits import LIMIT_NAMES

UNSANDBOXED = "unsandboxed: TICKETSMITH_SANDBOX=none ran this without bubblewrap"


async def run_project_tests(
    environments: Environments, workspace: GitWorkspace, repository: str, command: str,
    timeout_s: float, setup_command: str | None = None, *, modules: dict[str, str] | None = None,
    junit: bool = False, traced: list[str] | None = None, checks: list[str] | None = None,
) -> TestReport:  # fmt: skip
    """Build (or reuse) the checkout's environment, then run the test command in it.

    With `modules` (changed file -> module), each must import first, else no test runs; with
    `junit`, a pytest command reports each test (`passed_tests`, `failed_tests`); with
    `traced` files, failing tests that fail in their own asserts are rerun under a profiler
    to say where their call into those files returned. `checks` (lint, type check) run after
    the tests in the same environment; they are reported, and leave the verdict to the tests.
    """
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
    if modules:
        check = await workspace.run_command(
            import_check_command(modules), timeout_s, env_dir=env.path, sandbox=environments.sandbox
        )
        errors = import_errors(check.output, modules)
        if errors:
            return TestReport(
                passed=False,
                exit_code=check.exit_code or 1,
                output=check.output,
                import_errors=errors,
                environment=env.description,
                sandboxed=check.sandboxed,
            )
    if junit:
        command = with_junit(command)
        take_junit(workspace.root)
    result = await workspace.run_command(
        command, timeout_s, env_dir=env.path, sandbox=environments.sandbox
    )
    cases = take_junit(workspace.root) if junit else []
    limit = LIMIT_NAMES[result.limit] if result.limit else None
    checked = await run_checks(workspace, env.path, environments.sandbox, checks or [], timeout_s)
    report = TestReport(
        passed=result.exit_code == 0 and not result.timed_out and result.limit is None,
        exit_code=result.exit_code,
        output=f"{result.output.rstrip()}\n\n{checked.text}{footer(env, result.sandboxed)}",
        checks=checked.lines,
        timed_out=result.timed_out,
        duration_seconds=result.duration_s,
        environment=env.description,
        limit=limit,
        sandboxed=result.sandboxed,
    )
    if not cases:
        return report
    report = with_cases(report, cases)
    tests = traced_tests(report, traced or [])
    if not tests or result.timed_out or result.limit:
        return report
    trace = await workspace.run_command(
        trace_command(tests, traced or []), timeout_s, env_dir=env.path,
        sandbox=environments.sandbox,
    )  # fmt: skip
    return with_traces(report, read_traces(trace.output))


def footer(env: Environment, sandboxed: bool) -> str:
    """The lines every test report ends with: the environment and whether it was sandboxed."""
    where = "sandbox: bubblewrap, no network" if sandboxed else UNSANDBOXED
    return "\n".join(f"[{line}]" for line in [*env.report().splitlines(), where])
