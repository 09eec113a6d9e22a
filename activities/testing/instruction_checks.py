"""The check commands a repository's instructions name (lint, type check), run beside its tests
in the same sandboxed environment; reported, never deciding the tests' verdict."""

import re
import shlex
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from integrations.git.client import GitWorkspace
from integrations.workspace.commands import SYSTEM_PATH
from integrations.workspace.sandbox import Sandbox

TAIL_LINES = 20
CHECK_TIMEOUT_S = 300.0
MISSING_MODULE = re.compile(r"^\S*python\S*: No module named \S+$", re.MULTILINE)


@dataclass
class CheckedCode:
    """One line per check for the report, and the section of the test output they add."""

    lines: list[str] = field(default_factory=list)
    text: str = ""


def installed(command: str, env_dir: Path | None) -> bool:
    """Whether the command's program is in the environment (or on the system path)."""
    program = shlex.split(command)[0]
    path = f"{env_dir / 'bin'}:{SYSTEM_PATH}" if env_dir else SYSTEM_PATH
    return shutil.which(program, path=path) is not None


async def run_checks(
    workspace: GitWorkspace,
    env_dir: Path | None,
    sandbox: Sandbox,
    commands: list[str],
    timeout_s: float,
) -> CheckedCode:
    """Run each check command once in the workspace; say how each went."""
    checked = CheckedCode()
    sections: list[str] = []
    for command in commands:
        if not installed(command, env_dir):
            program = shlex.split(command)[0]
            line = f"`{command}`: not run ({program} is not installed in the environment)"
            checked.lines.append(line)
            sections.append(f"[check {line}]")
            continue
        result = await workspace.run_command(
            command, min(timeout_s, CHECK_TIMEOUT_S), env_dir=env_dir, sandbox=sandbox
        )
        if result.exit_code == 0 and not result.timed_out:
            verdict = "passed"
        elif MISSING_MODULE.search(result.output):
            verdict = "not run (its tool is not installed in the environment)"
        else:
            why = "timed out" if result.timed_out else f"exit code {result.exit_code}"
            verdict = f"failed ({why})"
        line = f"`{command}`: {verdict}"
        checked.lines.append(line)
        if verdict.startswith("failed"):
            tail = "\n".join(result.output.strip().splitlines()[-TAIL_LINES:])
            sections.append(f"[check {line}]\n{tail}")
        else:
            sections.append(f"[check {line}]")
    if sections:
        checked.text = "\n".join(sections) + "\n\n"
    return checked
