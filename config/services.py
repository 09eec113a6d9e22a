"""Settings of the services ticketsmith acts on: Jira, GitHub, GitLab, git hosting and Discord."""

from pathlib import Path

from pydantic import Field, SecretStr, model_validator

from config.common import CommonSettings


class ServiceSettings(CommonSettings):
    """The accounts, URLs and identities on the trackers, code hosts and chat."""

    # Unset service URLs point at the emulators here.
    emulator_host: str = "127.0.0.1"
    emulator_port: int = 8100

    jira_base_url: str = ""
    jira_email: str = "ticketsmith@example.com"
    jira_token: SecretStr = SecretStr("emulator-token")
    jira_api_version: int = 3
    jira_bot_account_id: str = "ticketsmith-bot"
    # The field holding acceptance criteria: an id (customfield_10035) or its name; "" for none.
    jira_acceptance_criteria_field: str = ""
    # Adding this label to a Jira issue starts ticketsmith on it ("" turns that off).
    jira_start_label: str = "ticketsmith"

    github_api_url: str = ""
    github_token: SecretStr = SecretStr("emulator-token")
    # A GitHub App instead of the personal token: its id and private key (a PEM file, or the
    # PEM text); ticketsmith then acts with the installation's short-lived tokens.
    github_app_id: str | None = Field(default=None, pattern=r"^\w+$")
    github_app_private_key_path: Path | None = None
    github_app_private_key: SecretStr | None = None
    # The account ticketsmith acts as on GitHub: its own events are ignored, mentions address it.
    github_bot_login: str = "ticketsmith-bot"
    # On a project tracked in GitHub Issues, adding this label to an issue starts its ticket
    # ("" turns that off; a comment mentioning the bot starts it too).
    github_start_label: str = "ticketsmith"
    # GitLab as a code host (REST API v4): a personal, group or project access token; the git
    # URLs of its projects are under gitlab_git_base_url (default: the API URL's host).
    gitlab_api_url: str = ""
    gitlab_token: SecretStr = SecretStr("emulator-token")
    gitlab_git_base_url: str = ""
    # The GitLab user ticketsmith acts as: its own notes and pushes are ignored, mentions
    # address it.
    gitlab_bot_username: str = "ticketsmith-bot"
    git_base_url: str = ""
    git_author_name: str = "ticketsmith"
    git_author_email: str = "ticketsmith@example.com"
    # Reruns a flaky Actions job gets on one head commit before a CI fix round (0: none).
    ci_reruns_per_commit: int = Field(default=3, ge=0)
    # A project's `discord_webhook_url` that starts with "/" is relative to this URL.
    discord_base_url: str = ""

    @model_validator(mode="after")
    def _service_urls(self) -> "ServiceSettings":
        """Unset service URLs point at the embedded stack's emulators on their configured port."""
        emulators = f"http://{self.emulator_host}:{self.emulator_port}"
        self.jira_base_url = self.jira_base_url or emulators
        self.github_api_url = self.github_api_url or f"{emulators}/api/v3"
        self.git_base_url = self.git_base_url or emulators
        self.gitlab_api_url = self.gitlab_api_url or f"{emulators}/api/v4"
        self.gitlab_git_base_url = self.gitlab_git_base_url or self.gitlab_api_url.removesuffix(
            "/api/v4"
        )
        self.discord_base_url = self.discord_base_url or emulators
        return self

    @model_validator(mode="after")
    def _one_github_identity(self) -> "ServiceSettings":
        """A personal token or a GitHub App with exactly one private key, never both."""
        key_path = self.github_app_private_key_path is not None
        key_text = self.github_app_private_key is not None
        if self.github_app_id is None:
            if key_path or key_text:
                raise ValueError(
                    "a GitHub App private key is set without TICKETSMITH_GITHUB_APP_ID: "
                    "set the app's id too (its settings page, 'App ID')"
                )
            return self
        if "github_token" in self.model_fields_set and self.github_token.get_secret_value():
            raise ValueError(
                "TICKETSMITH_GITHUB_TOKEN and TICKETSMITH_GITHUB_APP_ID are both set: "
                "unset TICKETSMITH_GITHUB_TOKEN to act as the GitHub App, or the "
                "TICKETSMITH_GITHUB_APP_* settings to act with the personal token"
            )
        if key_path == key_text:
            raise ValueError(
                "TICKETSMITH_GITHUB_APP_ID needs exactly one private key: set "
                "TICKETSMITH_GITHUB_APP_PRIVATE_KEY_PATH (a .pem file) or "
                "TICKETSMITH_GITHUB_APP_PRIVATE_KEY (the PEM text)"
                + (", not both" if key_path else "")
            )
        return self
