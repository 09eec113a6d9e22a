"""The benchmark's own emulator seed and projects file: one Jira project and repository a ticket."""

import json
import shutil
from pathlib import Path

from bench.quality.tickets import Ticket
from config import ROOT

BUILT_IN_SEED = ROOT / "emulators" / "seed.json"
OWNER = "bench"
ACCEPTANCE_FIELD = "customfield_10035"
TEST_COMMAND = "python -m pytest -q"


def seed_data(tickets: list[Ticket]) -> dict[str, object]:
    """The emulators' seed: the built-in users and webhooks, the tickets' projects and repos."""
    built_in = json.loads(BUILT_IN_SEED.read_text())
    return {
        "created": built_in["created"],
        "users": built_in["users"],
        "fields": built_in["fields"],
        "discord_webhooks": built_in["discord_webhooks"],
        "projects": [
            {"id": str(20000 + n), "key": t.project, "name": t.summary}
            for n, t in enumerate(tickets)
        ],
        "repositories": [
            {
                "id": 2001 + n,
                "owner": OWNER,
                "name": t.name,
                "description": t.summary,
                "default_branch": "main",
                "private": False,
                "source": str(t.repo_dir),
            }
            for n, t in enumerate(tickets)
        ],
        "issues": [t.issue() for t in tickets],
    }


def projects_toml(
    tickets: list[Ticket], discord_url: str, work_minutes: float | None = None
) -> str:
    """The projects file: each ticket's project works on its own repository, for at most
    `work_minutes` when given."""
    limit = "" if work_minutes is None else f"work_minutes = {work_minutes:g}\n"
    blocks = [
        f'[projects.{t.project}]\nrepository = "{OWNER}/{t.name}"\nbase_branch = "main"\n'
        f'test_command = "{TEST_COMMAND}"\nimplement_after_approval = true\n'
        # Scored once the pull request opens: nobody reviews it here.
        "follow_pull_request = false\n"
        f'discord_webhook_url = "{discord_url}"\n{limit}'
        for t in tickets
    ]
    return "# Written by the quality benchmark for its own run.\n\n" + "\n".join(blocks)


def prepare_data_dir(
    data_dir: Path, tickets: list[Ticket], emulator_url: str, work_minutes: float | None = None
) -> dict[str, str]:
    """A fresh data directory with the seed and projects file; the settings that point at them."""
    shutil.rmtree(data_dir, ignore_errors=True)
    data_dir.mkdir(parents=True)
    seed = data_dir / "seed.json"
    seed.write_text(json.dumps(seed_data(tickets), indent=2))
    hook = json.loads(BUILT_IN_SEED.read_text())["discord_webhooks"][0]
    projects = data_dir / "projects.toml"
    discord = f"{emulator_url}/api/webhooks/{hook['id']}/{hook['token']}"
    projects.write_text(projects_toml(tickets, discord, work_minutes))
    return {
        "TICKETSMITH_DATA_DIR": str(data_dir),
        "TICKETSMITH_PROJECTS_FILE": str(projects),
        "TICKETSMITH_EMULATOR_SEED_FILE": str(seed),
        "TICKETSMITH_JIRA_ACCEPTANCE_CRITERIA_FIELD": ACCEPTANCE_FIELD,
    }
