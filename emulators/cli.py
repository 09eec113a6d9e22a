"""Add your own repository and issues to the running emulators.

`python -m emulators add-repo PATH [--as OWNER/NAME]` hosts a local git repository (pushed
over git); `python -m emulators add-issue PROJECT SUMMARY [--description ...]` files an issue.
"""

import argparse
import base64
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx

from access.admin import admin_headers
from config import EmulatorProcessSettings, get_settings

COMMANDS = ("add-repo", "add-issue")


class CliError(Exception):
    """A problem the user can fix; printed as one line."""


def _post(settings: EmulatorProcessSettings, path: str, payload: dict[str, Any]) -> dict[str, Any]:
    url = f"{settings.jira_base_url}/_emulator/{path}"
    try:
        response = httpx.post(url, json=payload, headers=admin_headers(settings), timeout=60)
    except httpx.HTTPError as err:
        raise CliError(f"cannot reach the emulators at {settings.jira_base_url} ({err}); "
                       "is the stack running? (make up)") from err  # fmt: skip
    if not response.is_success:
        raise CliError(f"the emulators refused: {response.status_code} {response.text}")
    answer: dict[str, Any] = response.json()
    return answer


def add_repo(
    settings: EmulatorProcessSettings, path: Path, full_name: str | None, branch: str | None
) -> str:
    """Create the repository on the emulators and push the checkout's branch to it."""
    if not (path / ".git").exists():
        raise CliError(f"{path} is not a git checkout (no .git); run `git init` and commit first")
    current = _git(path, "rev-parse", "--abbrev-ref", "HEAD")
    branch = branch or current
    owner, _, name = (full_name or f"local/{path.resolve().name}").partition("/")
    repo = _post(settings, "repositories", {"owner": owner, "name": name, "default_branch": branch})
    remote = f"{settings.git_base_url.rstrip('/')}/{owner}/{name}.git"
    token = settings.github_token.get_secret_value()
    basic = base64.b64encode(f"x-access-token:{token}".encode()).decode()
    header = f"http.extraHeader=Authorization: Basic {basic}"
    _git(path, "-c", header, "push", "--quiet", remote, f"HEAD:refs/heads/{repo['default_branch']}")
    return (
        f"{owner}/{name} is hosted at {remote} (branch {repo['default_branch']}).\n"
        f"Map a Jira project to it in {settings.projects_file}, for example:\n"
        f'[projects.MINE]\nrepository = "{owner}/{name}"\nbase_branch = "{repo["default_branch"]}"'
    )


def add_issue(settings: EmulatorProcessSettings, args: argparse.Namespace) -> str:
    """File an issue in the Jira emulator."""
    payload = {
        "project": args.project, "summary": args.summary, "description": args.description,
        "labels": args.label, "components": args.component,
    }  # fmt: skip
    created = _post(settings, "issues", payload)
    return f"created {created['key']}; start it with: python starter.py {created['key']}"


def _git(cwd: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True)
    if done.returncode != 0:
        raise CliError(
            f"git {args[-3] if len(args) > 2 else args[0]} failed: {done.stderr.strip()}"
        )
    return done.stdout.strip()


def main(argv: list[str]) -> int:
    """Run one command; errors are one line on stderr and exit code 1."""
    parser = argparse.ArgumentParser(prog="python -m emulators", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    repo = sub.add_parser("add-repo", help="host a local git repository on the emulators")
    repo.add_argument("path", type=Path)
    repo.add_argument("--as", dest="full_name", help="owner/name (default: local/<folder>)")
    repo.add_argument("--branch", help="the branch to push (default: the checked-out one)")
    issue = sub.add_parser("add-issue", help="file an issue in the Jira emulator")
    issue.add_argument("project", help="Jira project key, e.g. MINE")
    issue.add_argument("summary")
    issue.add_argument("--description", default="", help="markdown")
    issue.add_argument("--label", action="append", default=[])
    issue.add_argument("--component", action="append", default=[])
    args = parser.parse_args(argv)
    settings = get_settings(EmulatorProcessSettings)
    try:
        if args.command == "add-repo":
            out = add_repo(settings, args.path, args.full_name, args.branch)
        else:
            out = add_issue(settings, args)
    except CliError as err:
        sys.stderr.write(f"error: {err}\n")
        return 1
    sys.stdout.write(out + "\n")
    return 0
