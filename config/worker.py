"""Settings only the worker reads: its polling, versioning, metrics and the implementation loop."""

from pydantic import Field

from config.common import CommonSettings


class WorkerOptions(CommonSettings):
    """How the worker polls, shuts down, identifies its code and reports."""

    max_concurrent_http_activities: int = Field(default=20, ge=1)
    max_concurrent_agent_activities: int = Field(default=2, ge=1)
    graceful_shutdown_seconds: float = Field(default=30.0, ge=0)
    # Worker Deployments: workers poll as the version <deployment name>.<build id>, both required
    # when on (temporal/deployment.py; how each workflow type moves: workflows/versioning.py).
    worker_versioning: bool = False
    worker_deployment_name: str = ""
    worker_build_id: str = ""
    metrics_host: str = "127.0.0.1"
    metrics_port: int = Field(default=9000, ge=0, description="0 switches metrics off")
    ticket_gauge_seconds: float = Field(default=30.0, ge=0, description="0: no ticket gauge")
    # The package index whose JSON API tells the advisories of the dependency versions a change
    # brings (PyPI's `/pypi/{name}/{version}/json`); "" turns the lookup off.
    advisory_index_url: str = "https://pypi.org"


class ImplementationSettings(CommonSettings):
    """How the implementation loop writes, checks and revises a change."""

    # Before the code, ask the model for the change's checks as data (a call and the value it
    # returns or the error it raises) and keep as acceptance tests those that fail on the
    # original code (or, said to hold already, pass there).
    implementation_example_tests: bool = True
    # Revisions (workers, tests, QA) before a ticket's change goes out as it stands.
    implementation_max_revisions: int = Field(default=15, ge=1, le=50)
    # A worker answers a Python file of some length with the definitions it adds or changes,
    # spliced in by the syntax tree; false: every file is written whole.
    implementation_definition_edits: bool = True
    # With definition edits: the worker first chooses which of the file's definitions change
    # (a choice among their names) and is shown only those. Off until it pays on the dev split.
    implementation_definition_targets: bool = False
    # A file short enough to be written whole gets its first revision from one bare call (the
    # ticket, its answers and the file in, the whole file out). Off until it pays on the dev split.
    implementation_first_draft: bool = False
    # Every revision of such a file is one bare call, told what the last revision's tests and
    # QA said (the first is the draft). Off until it pays on the dev split.
    implementation_bare_revisions: bool = False
    # The first revision of the files short enough to be written whole is chosen among this
    # many bare drafts by the tests they pass. 1 (no choice) until it pays on the dev split.
    implementation_candidates: int = Field(default=1, ge=1, le=8)
    # Minutes a ticket's implementation may spend revising; then its best revision goes out.
    implementation_minutes: float | None = Field(default=None, gt=0)
