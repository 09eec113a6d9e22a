"""What a failed git command says: whether the remote was missing or refused the credentials."""

import re

_NOT_FOUND = re.compile(r"not found|not appear to be a git repository|does not exist|: 404", re.I)
_AUTH_FAILED = re.compile(r"authentication failed|could not read username|error: 40[13]", re.I)


def auth_refused(stderr: str) -> bool:
    """Whether git's error output says the remote refused the credentials."""
    return bool(_AUTH_FAILED.search(stderr))


class GitError(Exception):
    """A git command failed; the message never holds credentials."""

    def __init__(self, command: str, exit_code: int, stderr: str) -> None:
        self.command, self.exit_code, self.stderr = command, exit_code, stderr.strip()
        self.not_found = bool(_NOT_FOUND.search(self.stderr))
        self.auth_failed = auth_refused(self.stderr)
        if self.not_found:
            reason = "the repository or ref was not found (does it exist, can the token read it?)"
        elif self.auth_failed:
            reason = "authentication failed (check the token)"
        else:
            reason = f"exit code {exit_code}"
        super().__init__(f"`{command}` failed: {reason}: {self.stderr}")
