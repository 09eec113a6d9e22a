"""Per-project config: which repository, branch, test command and waits a Jira project uses."""

import tomllib
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field, ValidationError, model_validator

from config.services import ServiceSettings

REPOSITORY_NAME = r"^[\w.-]+/[\w.-]+$"


class RepositoryRoute(BaseModel):
    """One more repository of a project, for tickets with one of these components or labels."""

    model_config = {"extra": "forbid"}

    repository: str = Field(pattern=REPOSITORY_NAME, description="owner/name")
    components: list[str] = Field(default_factory=list)
    labels: list[str] = Field(default_factory=list)
    clone_url: str | None = None
    base_branch: str | None = None
    test_command: str | None = None
    setup_command: str | None = None


class ProjectConfig(BaseModel):
    """How ticketsmith works on one Jira project."""

    model_config = {"extra": "forbid"}

    jira_project: str
    repository: str = Field(pattern=REPOSITORY_NAME, description="owner/name (the default)")
    # Where the project's tickets are filed: Jira issues (KEY-n), or the GitHub issues of
    # `issues_repository` (default: `repository`), issue #n being the ticket KEY-n.
    tracker: Literal["jira", "github"] = "jira"
    issues_repository: str | None = Field(default=None, pattern=REPOSITORY_NAME)
    # Where the code lives: GitHub, or GitLab (`repository` is the project's namespace/name;
    # merge requests are opened there and followed through pipelines, notes and the merge).
    code_host: Literal["github", "gitlab"] = "github"
    # Tickets go to the first of these whose components or labels they carry, else to
    # `repository`; a ticket can name one of them with a `repo:owner/name` label.
    repositories: list[RepositoryRoute] = Field(default_factory=list)
    clone_url: str | None = None
    base_branch: str = "main"
    test_command: str = "python -m pytest -q"
    # Run instead of the detected install, with network, in the environment ($VIRTUAL_ENV).
    setup_command: str | None = None
    implement_after_approval: bool = False
    # Run the check commands AGENTS.md (or CONTRIBUTING.md) names beside the tests.
    instruction_checks: bool = True
    discord_webhook_url: str | None = None
    reminder_interval_hours: float = Field(default=24, gt=0)
    max_reminders: int = Field(default=3, ge=0)
    expire_after_days: float = Field(default=7, gt=0)
    token_budget: int | None = Field(default=None, gt=0)
    cost_cap: float | None = Field(default=None, gt=0)  # US dollars
    # Minutes of work on a ticket (waits for people aside) before the implementation ends
    # with its best revision and opens the pull request; none means no limit.
    work_minutes: float | None = Field(default=None, gt=0)
    max_plan_rejections: int = Field(default=5, ge=1)
    # After the pull request opens: follow it (CI fixes, review rounds) until merged or closed.
    follow_pull_request: bool = True
    done_status: str = "Done"
    max_ci_fix_rounds: int = Field(default=3, ge=0)
    max_review_rounds: int = Field(default=5, ge=0)
    review_expire_after_days: float = Field(default=14, gt=0)
    # GitHub logins that may start rounds besides the repository's owners, members, collaborators.
    review_allow: list[str] = Field(default_factory=list)
    # Who may /approve or /reject a plan: Jira account ids or user names, `group:NAME` for a
    # Jira group's members; empty means anyone who can comment on the issue.
    approvers: list[str] = Field(default_factory=list)
    approvals_required: int = Field(default=1, ge=1)
    reporter_may_approve: bool = True

    @model_validator(mode="after")
    def _tracker_on_code_host(self) -> "ProjectConfig":
        """GitHub issues are tickets only of a GitHub repository: say so at load."""
        if self.code_host == "gitlab" and self.tracker == "github":
            raise ValueError('tracker = "github" needs code_host = "github"')
        return self

    @property
    def tracked_issues(self) -> str:
        """The GitHub repository whose issues are this project's tickets."""
        return self.issues_repository or self.repository

    def issue_number(self, key: str) -> int:
        """The GitHub issue number of a ticket key (`KEY-42`: 42)."""
        return int(key.rsplit("-", 1)[1])


class ProjectConfigError(ValueError):
    """The project config file is missing, malformed, or lacks the project."""


def load_projects(path: Path) -> dict[str, ProjectConfig]:
    """Read and validate the project config file, keyed by Jira project key."""
    try:
        raw = tomllib.loads(path.read_text())
    except FileNotFoundError as err:
        raise ProjectConfigError(f"project config file {path} does not exist") from err
    except tomllib.TOMLDecodeError as err:
        raise ProjectConfigError(f"{path}: not valid TOML: {err}") from err
    projects: dict[str, ProjectConfig] = {}
    for key, table in raw.get("projects", {}).items():
        try:
            projects[key] = ProjectConfig(jira_project=key, **table)
        except ValidationError as err:
            first = err.errors()[0]
            field = ".".join(str(p) for p in first["loc"])
            raise ProjectConfigError(f"{path}: projects.{key}.{field}: {first['msg']}") from err
    return projects


def project_for(key: str, settings: ServiceSettings) -> ProjectConfig:
    """The config of the project a ticket key belongs to, or a clear error."""
    project = key.split("-", 1)[0]
    projects = load_projects(settings.projects_file)
    if project not in projects:
        known = ", ".join(sorted(projects)) or "none"
        raise ProjectConfigError(
            f"Jira project {project} is not configured in {settings.projects_file} "
            f"(configured: {known}); add a [projects.{project}] table"
        )
    return projects[project]


def github_issue_of(key: str, settings: ServiceSettings) -> tuple[str, int]:
    """The repository and number of the GitHub issue a ticket key names."""
    project = project_for(key, settings)
    if project.tracker != "github":
        raise ProjectConfigError(f"{key}: project {project.jira_project} is tracked on Jira")
    return project.tracked_issues, project.issue_number(key)


def tracker_of(key: str, settings: ServiceSettings) -> str:
    """The tracker a ticket key's project names; Jira for a project not configured."""
    try:
        return project_for(key, settings).tracker
    except ProjectConfigError:
        return "jira"


def project_for_issues(repository: str, projects: dict[str, ProjectConfig]) -> ProjectConfig | None:
    """The project whose tickets are the GitHub issues of `repository`, if any."""
    return next(
        (
            p
            for p in projects.values()
            if p.tracker == "github" and p.tracked_issues.casefold() == repository.casefold()
        ),
        None,
    )


def clone_url_for(
    project: "ProjectConfig | RepositoryRoute", settings: ServiceSettings, code_host: str = "github"
) -> str:
    """The git URL of a project's repository (no credentials: those go in the environment)."""
    base = settings.gitlab_git_base_url if code_host == "gitlab" else settings.git_base_url
    return project.clone_url or f"{base.rstrip('/')}/{project.repository}.git"


def code_host_of(repository: str, settings: ServiceSettings) -> str:
    """The code host of a repository the projects name: "gitlab" or "github" (the default)."""
    wanted = repository.casefold()
    for project in load_projects(settings.projects_file).values():
        routes = [project.repository, *(r.repository for r in project.repositories)]
        if wanted in {r.casefold() for r in routes}:
            return project.code_host
    return "github"


def discord_webhook_for(project: ProjectConfig, settings: ServiceSettings) -> str | None:
    """A project's Discord webhook URL, a relative one resolved against `discord_base_url`."""
    url = project.discord_webhook_url
    if url and url.startswith("/"):
        return settings.discord_base_url.rstrip("/") + url
    return url
