"""Settings for an embedded stack on free ports, as the end-to-end tests and the benches run one."""

from pathlib import Path
from typing import Any

from config import Settings
from harness.processes import free_port


def stack_settings(
    data: Path,
    follow_pull_request: bool = False,
    project: str = "",
    repository: str = "demo/calc",
    **overrides: Any,
) -> Settings:
    """Settings for a stack on free ports whose DEMO project implements and notifies Discord.

    Tickets end when their PR opens unless `follow_pull_request` (the modules that cover the
    way to the PR); `project` adds lines to the project's table, whose code is `repository`.
    """
    emulator_port = free_port()
    projects = data / "projects.toml"
    projects.write_text(
        "[projects.DEMO]\n"
        f'repository = "{repository}"\n'
        "implement_after_approval = true\n"
        'discord_webhook_url = "/api/webhooks/1000/demo-token"\n'
        f"follow_pull_request = {str(follow_pull_request).lower()}\n{project}"
    )
    defaults: dict[str, Any] = {
        "data_dir": data,
        "projects_file": projects,
        "temporal_address": f"127.0.0.1:{free_port()}",
        "temporal_ui_port": free_port(),
        "temporal_http_port": free_port(),
        "webhook_port": free_port(),
        "emulator_port": emulator_port,
        "metrics_port": free_port(),
        "codec_port": free_port(),
        "toolserver_port": free_port(),
        "local_model_port": free_port(),
        "task_queue": "e2e",
        "temporal_env_config": False,  # the stack's own dev server, whatever the shell has set
    }
    return Settings(**(defaults | overrides))
