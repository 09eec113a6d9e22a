"""The stack the organisation end-to-end tests share: projects with approvers, a cost cap and a
repository whose AGENTS.md names a check, the worker's model a scripted server with a price."""

import json
import os
import shutil
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr

from embedded.stack import Stack
from emulators.app import DEFAULT_SEED
from harness.model_server import FakeModelServer, Reply
from harness.stacks import stack_settings
from harness.team import TeamBrain
from llm.fences import fence, find_file_block
from tests.e2e.stacks import running
from tests.support.pr_team import BUGGY, OPS, TEST_POWER, TESTS

SECRET = "organisation-e2e-secret"
COST_CAP = 0.001  # dollars: a few hundred tokens at PRICE
PRICE = {"fake": {"input": 10.0, "output": 10.0}}  # dollars per million tokens
GUIDANCE = "Use the ** operator for power"
STEERED = "steered"  # in the summary of the ticket whose first revision is wrong
CORRECT = (
    "\n\ndef power(base: float, exponent: int) -> float:\n"
    '    """Return base**exponent."""\n    return base**exponent\n'
)
AGENTS_MD = "# Working here\n\nBefore you push, always run `make check` and keep it green.\n"
MAKEFILE = "check:\n\tpython -m compileall -q calc\n"
PROJECTS = f"""
[projects.APPR]
repository = "demo/calc"
approvers = ["bob-2"]

[projects.CHECK]
repository = "demo/checked"
implement_after_approval = true
follow_pull_request = false

[projects.COST]
repository = "demo/calc"
implement_after_approval = true
follow_pull_request = false
cost_cap = {COST_CAP}

[projects.STEER]
repository = "demo/calc"
implement_after_approval = true
follow_pull_request = false
"""
ISSUES = {
    "APPR-1": "Add a power operation, decided by an approver",
    "CHECK-1": "Add a power operation to a repository with its own checks",
    "COST-1": "Add a power operation within a cost cap",
    "STEER-1": f"Add a power operation, {STEERED} while it runs",
}


class OrganisationBrain(TeamBrain):
    """Writes power() right, except the first revision of the steered ticket, which is wrong
    until a person's guidance reaches its prompt."""

    def _implement_file(self, body: dict[str, Any], inputs: dict[str, Any]) -> Reply:
        path, text = inputs["path"], json.dumps(body)
        human = next(m["content"] for m in reversed(body["messages"]) if m.get("role") == "user")
        current = find_file_block(human, path, fallback=False) or ""
        if path == OPS:
            current = current.replace(BUGGY.strip(), "").replace(CORRECT.strip(), "")
            wrong = STEERED in text and GUIDANCE not in text
            return fence(path, current.rstrip("\n") + (BUGGY if wrong else CORRECT), "python")
        if TEST_POWER.strip() in current:
            return fence(path, current, "python")
        return fence(path, current.rstrip("\n") + "\n" + TEST_POWER, "python")


def held_first_revision(model: FakeModelServer) -> bool:
    """Whether the steered ticket's first revision is waiting on the model server."""
    return any(call.held for call in model.calls)


def organisation_model() -> FakeModelServer:
    """The scripted model server; it holds the steered ticket's first file until released."""
    brain = OrganisationBrain(additions={OPS: BUGGY, TESTS: TEST_POWER})
    return FakeModelServer(
        brain, hold=lambda call: call.task == "implement_file" and STEERED in json.dumps(call.body)
    )


def seed_with_organisation(data: Path) -> Path:
    """The emulators' seed plus the four projects, their issues and demo/checked."""
    seed = json.loads(DEFAULT_SEED.read_text())
    for repo in [*seed["repositories"], *seed.get("gitlab_projects", [])]:
        repo["source"] = str(DEFAULT_SEED.parent / repo["source"])
    checked = data / "checked"
    shutil.copytree(DEFAULT_SEED.parent / "seed/repos/calc", checked)
    (checked / "AGENTS.md").write_text(AGENTS_MD)
    (checked / "Makefile").write_text(MAKEFILE)
    seed["repositories"].append(
        {"id": 1900, "owner": "demo", "name": "checked", "default_branch": "main",
         "description": "calc with its own checks", "private": False, "source": str(checked)}
    )  # fmt: skip
    for number, key in enumerate(ISSUES, start=1):
        project = key.split("-")[0]
        seed["projects"].append({"id": str(10900 + number), "key": project, "name": project})
        seed["issues"].append(
            {"key": key, "project": project, "issuetype": "Story", "summary": ISSUES[key],
             "description": "Add `power(base, exponent)` to `calc/operations.py`, with a test.",
             "labels": [], "status": "To Do", "reporter": "alice-1"}
        )  # fmt: skip
    seed_file = data / "seed.json"
    seed_file.write_text(json.dumps(seed))
    return seed_file


@asynccontextmanager
async def organisation_stack(data: Path, model: FakeModelServer) -> AsyncIterator[Stack]:
    """The stack with the organisation's projects, signed Jira webhooks and a priced model."""
    variables = {
        "OPENAI_BASE_URL": model.base_url,
        "TICKETSMITH_OPENAI_MODEL": "fake",
        "TICKETSMITH_MODEL_PRICES": json.dumps(PRICE),
        # The repository's environment is built where the machine's pip configuration is seen.
        "TICKETSMITH_SANDBOX": os.environ.get("TICKETSMITH_SANDBOX", "none"),
    }
    settings = stack_settings(
        data,
        webhook_secret=SecretStr(SECRET),
        model_provider="openai",
        openai_base_url=model.base_url,
        emulator_seed_file=seed_with_organisation(data),
    )
    with settings.projects_file.open("a") as projects:
        projects.write(PROJECTS)
    # The stack's processes take this process's environment.
    with pytest.MonkeyPatch.context() as environment:
        for name, value in variables.items():
            environment.setenv(name, value)
        async with running(settings) as started:
            yield started
