"""Settings: the plain values every process reads from its environment (projects: tickets/)."""

from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import (
    AliasChoices,
    Field,
    SecretStr,
    model_validator,
)
from pydantic_settings import BaseSettings, SettingsConfigDict

import temporal_settings as temporal
from vocabulary.prices import ModelPrice, parse_prices

ROOT = Path(__file__).resolve().parent


class Settings(BaseSettings):
    """Everything a process of ticketsmith reads from its environment."""

    model_config = SettingsConfigDict(env_prefix="TICKETSMITH_", env_file=".env", extra="ignore")

    # The level of the worker's own loggers; DEBUG adds every prompt and answer of the local model.
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    # Read without pydantic by `status`, `list` and `watch` (temporal_settings.py).
    # Unset, the address and namespace come from Temporal's client configuration when it sets
    # them (TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, a temporal.toml profile): see
    # temporal/connection.py, which takes TLS and the API key from there.
    temporal_address: str = temporal.TEMPORAL_ADDRESS
    temporal_namespace: str = temporal.TEMPORAL_NAMESPACE
    # Read Temporal's client configuration at all (the embedded stack's processes do not: they
    # talk to its own plaintext dev server).
    temporal_env_config: bool = True
    temporal_ui_port: int = temporal.TEMPORAL_UI_PORT
    temporal_ui_url: str = ""
    # Temporal's HTTP API, where `status`, `list` and `watch` read; "off" reads over gRPC only.
    temporal_http_port: int = temporal.TEMPORAL_HTTP_PORT
    temporal_http_url: str = ""
    task_queue: str = "ticketsmith"
    agent_task_queue: str = "ticketsmith-agents"
    max_concurrent_http_activities: int = Field(default=20, ge=1)
    max_concurrent_agent_activities: int = Field(default=2, ge=1)
    graceful_shutdown_seconds: float = Field(default=30.0, ge=0)
    # Worker Deployments: workers poll as the version <deployment name>.<build id>, both required
    # when on (temporal/deployment.py; how each workflow type moves: workflows/versioning.py).
    worker_versioning: bool = False
    worker_deployment_name: str = ""
    worker_build_id: str = ""
    # How long the embedded stack waits for each service to be ready: a busy machine can
    # take minutes to import the worker.
    ready_timeout_seconds: float = Field(default=600.0, gt=0)
    # How long `starter.py status` waits for a worker to answer about a running ticket.
    status_query_seconds: float = Field(default=temporal.STATUS_QUERY_SECONDS, gt=0)

    metrics_host: str = "127.0.0.1"
    metrics_port: int = Field(default=9000, ge=0, description="0 switches metrics off")
    ticket_gauge_seconds: float = Field(default=30.0, ge=0, description="0: no ticket gauge")
    otel_endpoint: str | None = None
    otel_service_name: str = "ticketsmith"

    encryption_keys: SecretStr | None = Field(
        default=None, description="key_id=base64key,...: the first encrypts, all decrypt"
    )
    codec_host: str = "127.0.0.1"
    codec_port: int = 8081
    codec_cors_origins: str = ""

    # The bearer token callers beyond loopback must send to the routes that change state or
    # read payloads: the codec server, the tool server's faults and call log, the emulators'
    # admin routes. Without it those routes answer callers on this machine only.
    admin_token: SecretStr | None = None
    # Those routes answer anyone, token or not (a trusted network; logged at start).
    admin_allow_unauthenticated: bool = False

    data_dir: Path = ROOT / ".data"
    # Payloads of at least this size are kept in the payload store, the history holds a
    # reference (0: none are; references already written still read back).
    payload_store_threshold_kib: int = Field(default=32, ge=0)
    # Shared by every worker and client (None: <data_dir>/payloads).
    payload_store_dir: Path | None = None
    projects_file: Path = ROOT / "projects.toml"

    webhook_host: str = "127.0.0.1"
    webhook_port: int = 8000
    # Jira and GitHub sign deliveries with it; the webhook app does not start without it.
    webhook_secret: SecretStr | None = None
    # Take deliveries without a signature (a local experiment): every answer says "unsigned",
    # and so does the status of every ticket they reach.
    webhook_allow_unsigned: bool = False

    emulator_host: str = "127.0.0.1"
    emulator_port: int = 8100
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

    # The MCP tool server the research agents call (python -m toolserver).
    toolserver_host: str = "127.0.0.1"
    toolserver_port: int = 8200
    # Where clients reach it ("" means http://toolserver_host:toolserver_port).
    toolserver_url: str = ""
    # Documents get_doc serves (markdown, HTML, PDF); the demo corpus is seeded into an empty one.
    toolserver_docs_dir: Path | None = None
    toolserver_search_provider: str = "local"
    # The pages the local search provider indexes (JSON: [{url, title, text}]); None: the demo's.
    toolserver_search_corpus: Path | None = None
    # A fault profile (JSON) in force from the start; without one, every call waits 0-500 ms.
    toolserver_faults_file: Path | None = None
    toolserver_latency_min_seconds: float = Field(default=0.0, ge=0)
    toolserver_latency_max_seconds: float = Field(default=0.5, ge=0)
    toolserver_fault_seed: int | None = None

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
    # GitLab as a code host (REST API v4): a personal, group or project access token; the git
    # URLs of its projects are under gitlab_git_base_url (default: the API URL's host).
    gitlab_api_url: str = ""
    gitlab_token: SecretStr = SecretStr("emulator-token")
    gitlab_git_base_url: str = ""
    # The GitLab user ticketsmith acts as: its own notes and pushes are ignored, mentions
    # address it.
    gitlab_bot_username: str = "ticketsmith-bot"
    # On a project tracked in GitHub Issues, adding this label to an issue starts its ticket
    # ("" turns that off; a comment mentioning the bot starts it too).
    github_start_label: str = "ticketsmith"
    # Reruns a flaky Actions job gets on one head commit before a CI fix round (0: none).
    ci_reruns_per_commit: int = Field(default=3, ge=0)
    git_base_url: str = ""
    git_author_name: str = "ticketsmith"
    git_author_email: str = "ticketsmith@example.com"
    # A project's `discord_webhook_url` that starts with "/" is relative to this URL.
    discord_base_url: str = ""
    # The package index whose JSON API tells the advisories of the dependency versions a change
    # brings (PyPI's `/pypi/{name}/{version}/json`); "" turns the lookup off.
    advisory_index_url: str = "https://pypi.org"

    model_provider: str = "auto"
    openai_api_key: SecretStr | None = Field(
        default=None, validation_alias=AliasChoices("OPENAI_API_KEY", "TICKETSMITH_OPENAI_API_KEY")
    )
    openai_base_url: str | None = Field(
        default=None,
        validation_alias=AliasChoices("OPENAI_BASE_URL", "TICKETSMITH_OPENAI_BASE_URL"),
    )
    openai_model: str = "gpt-4o-mini"
    openai_temperature: float = 0.0
    # US dollars per million input and output tokens by model name, as JSON:
    # {"gpt-4o-mini": {"input": 0.15, "output": 0.60}}. The local and offline models are free.
    model_prices: str = ""
    # The run's seed: every chat request carries a seed drawn from it (OpenAI's and llama.cpp's
    # `seed`), so a run can be drawn again; None sends none. The quality benchmark sets one a run.
    model_seed: int | None = None

    # Write the examples the ticket's criteria state (`f(x)` returns `y`) as tests, as stated,
    # and have the model test the errors and values criteria state without a call.
    implementation_example_tests: bool = True
    # Revisions (workers, tests, QA) before a ticket's change goes out as it stands.
    implementation_max_revisions: int = Field(default=15, ge=1, le=50)
    # A worker answers a Python file of some length with the definitions it adds or changes,
    # spliced in by the syntax tree; false: every file is written whole.
    implementation_definition_edits: bool = True
    # With definition edits: the worker first chooses which of the file's definitions change
    # (a choice among their names) and is shown only those. Off until it pays on the dev split.
    implementation_definition_targets: bool = False
    # The acceptance tests come from checks the model lists as data (a call and the value it
    # returns or the error it raises), each kept as it behaves on the original code.
    implementation_acceptance_checks: bool = False
    # Minutes a ticket's implementation may spend revising; then its best revision goes out.
    implementation_minutes: float | None = Field(default=None, gt=0)
    # Workspace commands run in bubblewrap; `none` runs them unsandboxed (explicitly, warned).
    # The modes of integrations/workspace/sandbox.py (`SandboxMode`), which builds the sandbox
    # from these.
    sandbox: Literal["bwrap", "none"] = "bwrap"
    sandbox_memory_mb: int = Field(default=2048, ge=64, description="address space per process")
    sandbox_max_processes: int = Field(default=256, ge=8)
    sandbox_cpu_seconds: int = Field(default=600, ge=1, description="CPU time per process")
    sandbox_output_mb: int = Field(default=16, ge=1, description="output a run may print")
    # A root worker runs each command as a uid of its own from this range (no user, container
    # or other machine-wide use may have them), so the processes limit is per run.
    sandbox_uid_base: int = Field(default=2_000_000, ge=1000, le=2_000_000_000)
    sandbox_uid_count: int = Field(default=1024, ge=1, le=65536)
    environment_setup_timeout_seconds: float = Field(default=900, gt=0)
    # Hosts set-up may reach besides the package indexes pip and uv are configured with
    # ("host" or "host:port", comma-separated), e.g. a git host the dependencies come from.
    setup_allowed_hosts: str = ""

    models_dir: Path = ROOT / ".models"
    local_model_path: Path | None = None
    local_model_host: str = "127.0.0.1"
    local_model_port: int = 8181
    local_model_context: int = 4096  # tokens of context per slot
    # Calls the server answers at once; each slot gets the whole context (one: they queue).
    local_model_slots: int = Field(default=1, ge=1, le=8)

    @model_validator(mode="after")
    def _default_urls(self) -> "Settings":
        """Unset service URLs point at the embedded stack on the configured ports."""
        emulators = f"http://{self.emulator_host}:{self.emulator_port}"
        self.jira_base_url = self.jira_base_url or emulators
        self.github_api_url = self.github_api_url or f"{emulators}/api/v3"
        self.git_base_url = self.git_base_url or emulators
        self.gitlab_api_url = self.gitlab_api_url or f"{emulators}/api/v4"
        self.gitlab_git_base_url = self.gitlab_git_base_url or self.gitlab_api_url.removesuffix(
            "/api/v4"
        )
        self.discord_base_url = self.discord_base_url or emulators
        tools = f"http://{self.toolserver_host}:{self.toolserver_port}"
        self.toolserver_url = self.toolserver_url or tools
        self.temporal_ui_url = self.temporal_ui_url or temporal.ui_url(self.temporal_ui_port)
        if self.temporal_env_config and temporal.client_config_in_use():
            self._apply_temporal_client_config()
        self.temporal_http_url = self.temporal_http_url or temporal.http_url(
            self.temporal_address, self.temporal_http_port
        )
        return self

    def _apply_temporal_client_config(self) -> None:
        """Temporal's client configuration is in use: its address and namespace where ours are
        not set, and reads over gRPC, which alone applies its TLS and credentials."""
        address, namespace = temporal.configured_endpoint()
        if address and "temporal_address" not in self.model_fields_set:
            self.temporal_address = address
        if namespace and "temporal_namespace" not in self.model_fields_set:
            self.temporal_namespace = namespace
        self.temporal_http_url = "off"

    @model_validator(mode="after")
    def _one_github_identity(self) -> "Settings":
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

    @property
    def workspace_dir(self) -> Path:
        """Local clones: a cache only, every activity starts from the remote."""
        return self.data_dir / "workspaces"

    @property
    def documents_dir(self) -> Path:
        """The tool server's document folder."""
        return self.toolserver_docs_dir or self.data_dir / "toolserver" / "docs"

    @property
    def payload_store_path(self) -> Path:
        """The folder of payloads too large for the history."""
        return self.payload_store_dir or self.data_dir / "payloads"

    @property
    def environments_dir(self) -> Path:
        """Repositories' virtual environments, cached by the hash of their dependency files."""
        return self.data_dir / "environments"

    @model_validator(mode="after")
    def _readable_prices(self) -> "Settings":
        """Refuse prices that cannot be read now, not at a ticket's first model call."""
        self.prices()
        return self

    def prices(self) -> dict[str, ModelPrice]:
        """The model prices by model name."""
        return parse_prices(self.model_prices)

    @property
    def setup_hosts(self) -> list[str]:
        """The extra hosts set-up may reach, one entry each."""
        return self.setup_allowed_hosts.replace(",", " ").split()

    @property
    def emulator_state_dir(self) -> Path:
        """Where the emulators keep their state and bare git repositories."""
        return self.data_dir / "emulators"


@lru_cache
def get_settings() -> Settings:
    """The process-wide settings; tests call `get_settings.cache_clear()` to override."""
    return Settings()
