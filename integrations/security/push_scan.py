"""What a push would publish, checked for credentials before it leaves.

It reads the lines added by every commit the remote does not have yet (of a merge, only the
lines its resolution wrote, new to every parent), and finds the worker's own secret values and
the known shapes in them. The repository allows test fixtures: a path in
`.ticketsmith/secrets-allowed` on its base branch (never the change's own), or detect-secrets'
inline `pragma: allowlist secret` on the line; an approver can let a ticket's findings through.
Nothing allows one of the worker's own values.
"""

import re
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass
from fnmatch import fnmatchcase
from typing import Any

from integrations.git.client import GitWorkspace
from integrations.security.secrets import SecretFinder, allowed_inline

ALLOWLIST = ".ticketsmith/secrets-allowed"
SHOWN = 10  # findings named in the message; the details hold them all
_HUNK = re.compile(r"^(@@+) .*?\+(\d+)(?:,\d+)? @@+")


@dataclass(frozen=True)
class Finding:
    """A credential in the change: where and what kind, never the value."""

    path: str
    line: int
    kind: str
    own: bool = False  # one of the worker's own secret values

    def __str__(self) -> str:
        return f"`{self.path}` line {self.line} ({self.kind})"


class SecretsFound(Exception):
    """The change holds credentials: nothing was pushed."""

    def __init__(self, branch: str, base: str, findings: list[Finding]) -> None:
        self.findings = findings
        named = "; ".join(str(f) for f in findings[:SHOWN])
        more = f"; and {len(findings) - SHOWN} more" if len(findings) > SHOWN else ""
        super().__init__(
            f"Nothing was pushed to `{branch}`: the change holds what looks like a credential "
            f"(values not shown): {named}{more}. Ask for the value to come from elsewhere (an "
            f"environment variable, say) and restart the ticket or comment on the pull request; "
            f"or, for a test fixture, have someone who may change `{base}` allow it there with "
            f"a `pragma: allowlist secret` comment on the line or the file's path in "
            f"`{ALLOWLIST}` (docs/running/security.md, what leaves the worker)"
        )

    def details(self) -> list[dict[str, Any]]:
        """The findings as plain data (for the activity's failure)."""
        return [asdict(f) for f in self.findings]


class PushScan:
    """The check a workspace runs before each push: the change against the base's allowlist."""

    def __init__(
        self, finder: SecretFinder, base_branch: str, approved: Iterable[Finding] = ()
    ) -> None:
        self._finder = finder
        self._base = base_branch
        self._approved = frozenset(approved)

    async def check(self, workspace: GitWorkspace, branch: str) -> None:
        """Raise SecretsFound when what HEAD would push holds a credential not approved."""
        found = await outgoing_findings(workspace, self._finder, self._base)
        findings = [f for f in found if f.own or f not in self._approved]
        if findings:
            raise SecretsFound(branch, self._base, findings)


async def outgoing_findings(
    workspace: GitWorkspace, finder: SecretFinder, base: str
) -> list[Finding]:
    """The credentials in the lines HEAD adds over everything the remote has."""
    allowed = await allowed_paths(workspace, base)
    _, log = await workspace.run_git(
        "-c", "core.quotePath=false", "log", "--cc", "--unified=0", "--no-color",
        "--no-ext-diff", "--no-renames", "--format=commit %H", "HEAD", "--not", "--remotes=origin",
    )  # fmt: skip
    findings: list[Finding] = []
    for path, number, text in added_lines(log):
        hits = finder.hits(text, path)
        if not any(h.own for h in hits):
            if any(fnmatchcase(path, glob) for glob in allowed) or allowed_inline(text, path):
                continue
        findings += [Finding(path, number, hit.kind, hit.own) for hit in hits]
    return sorted(set(findings), key=lambda f: (f.path, f.line, f.kind))


async def allowed_paths(workspace: GitWorkspace, base: str) -> list[str]:
    """The globs of `.ticketsmith/secrets-allowed` as the remote base branch has it."""
    code, text = await workspace.run_git(
        "show", f"refs/remotes/origin/{base}:{ALLOWLIST}", check=False
    )
    if code != 0:
        return []
    lines = (line.split("#", 1)[0].strip() for line in text.splitlines())
    return [line for line in lines if line]


def added_lines(log: str) -> Iterator[tuple[str, int, str]]:
    """(path, line number, text) of each line `git log --cc` shows as new to every parent."""
    path: str | None = None
    parents = 0
    number = 0
    in_hunk = False
    for line in log.splitlines():
        if in_hunk and line.startswith("\\"):  # "\ No newline at end of file"
            continue
        if in_hunk and line[:parents] and set(line[:parents]) <= {" ", "+", "-"}:
            prefix = line[:parents]
            if "-" not in prefix:
                if path is not None and set(prefix) == {"+"}:
                    yield path, number, line[parents:]
                number += 1
            continue
        in_hunk = False
        if line.startswith("+++ "):
            target = line[4:].strip().strip('"')
            path = None if target == "/dev/null" else target.removeprefix("b/")
        elif line.startswith(("diff ", "commit ")):
            path = None
        elif hunk := _HUNK.match(line):
            parents = len(hunk.group(1)) - 1
            number = int(hunk.group(2))
            in_hunk = True
