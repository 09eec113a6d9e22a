"""Settings of the emulators of Jira, GitHub, GitLab and Discord (python -m emulators)."""

from pathlib import Path
from typing import Literal

from config.common import CommonSettings


class EmulatorSettings(CommonSettings):
    """Where the emulators send webhooks, how their CI reports, and what they start with."""

    # Where the Jira emulator sends its webhooks ("" sends none; the stack sets its webhook app).
    emulator_webhook_url: str = ""
    # Send Jira webhooks as Server/DC does (`comment_created` without its issue, plus an
    # `issue_commented` update) instead of as Cloud does.
    emulator_jira_server_webhooks: bool = False
    # Where the GitHub emulator sends its webhooks ("" sends none; the stack sets its webhook app).
    emulator_github_webhook_url: str = ""
    # Where the GitLab emulator sends its webhooks ("" sends none; the stack sets its webhook app).
    emulator_gitlab_webhook_url: str = ""
    # The emulated CI: every push runs the repository's test command and reports a check run.
    emulator_ci: bool = False
    # How the emulated CI reports: "checks" (a check run of its own app) or "actions" (a GitHub
    # Actions workflow run with its job, the job's log and the job's check run). A repository's
    # `ci.reporter` in the seed overrides it.
    emulator_ci_reporter: Literal["checks", "actions"] = "checks"
    # The emulators' seed data (JSON: users, projects, issues, repositories); None: the shipped one.
    emulator_seed_file: Path | None = None
    # A JSON file of faults the emulators inject from the start (see README, "Faults").
    emulator_faults_file: Path | None = None

    @property
    def emulator_state_dir(self) -> Path:
        """Where the emulators keep their state and bare git repositories."""
        return self.data_dir / "emulators"
