"""Every answer of the GitHub emulator validates against GitHub's official schema for it.

The schemas come from GitHub's OpenAPI description (see `extract.py`, version recorded in
`schemas.json`); the operations are listed one per line in `operations.py`.
"""

import json
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa
from fastapi import FastAPI
from jsonschema import Draft7Validator

from emulators.github.store import find_repo
from integrations.github.app import app_jwt
from integrations.workspace.commands import CommandResult
from tests.contracts.github.operations import OPERATIONS, Operation
from tests.emulators.helpers import BASE_URL, BOT, add_branch, emulator_client, new_emulator
from tests.support.github_app import APP_ID, install_app

APP_KEY = rsa.generate_private_key(public_exponent=65537, key_size=2048)
DAVE = {"Authorization": "Bearer dave-token"}
SCHEMAS = json.loads((Path(__file__).parent / "schemas.json").read_text())


FAILED = "FAILED tests/test_calc.py::test_power - assert 6 == 8\n1 failed, 4 passed in 0.1s"


async def failing_tests(r: dict[str, Any], sha: str, command: str) -> CommandResult:
    return CommandResult(exit_code=1, output=FAILED, timed_out=False, duration_s=0.1)


@pytest.fixture(scope="module")
async def emulator(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[FastAPI]:
    """demo/calc with pull request #1 from ticketsmith/DEMO-1, a branch ticketsmith/DEMO-2,
    a GitHub App installed on demo and a failed Actions run on DEMO-1's head."""
    state = tmp_path_factory.mktemp("github")
    app = new_emulator(state)
    heads = []
    for number in (1, 2):
        files = {f"calc/change{number}.py": f"x = {number}\n"}
        bare = state / "git" / "demo" / "calc.git"
        heads.append(add_branch(bare, f"ticketsmith/DEMO-{number}", files))
    async with emulator_client(app) as http:
        opened = await http.post(
            "/api/v3/repos/demo/calc/pulls", headers=BOT,
            json={"title": "DEMO-1: power", "head": "ticketsmith/DEMO-1", "base": "main"},
        )  # fmt: skip
        assert opened.status_code == 201, opened.text
        issue = await http.post(
            "/api/v3/repos/demo/calc/issues", headers=DAVE, json={"title": "Add power"}
        )
        assert issue.status_code == 201 and issue.json()["number"] == 2, issue.text
        comment = await http.post(
            "/api/v3/repos/demo/calc/issues/2/comments", headers=DAVE, json={"body": "Soon?"}
        )
        assert comment.status_code == 201, comment.text
    app.state.emulator.data["github_teams"] = {"demo/maintainers": ["carol"]}
    await install_app(app, APP_KEY)
    async with emulator_client(app) as http:
        found = await http.get("/api/v3/repos/demo/calc/installation", headers=app_jwt_header())
        assert found.status_code == 200, found.text
    ci = app.state.ci
    ci.reporter, ci.test_commit = "actions", failing_tests
    ci.pushed("demo", "calc", [("refs/heads/ticketsmith/DEMO-1", heads[0])], BASE_URL)
    await ci.drain(30)
    yield app
    await ci.drain(30)


def ids_of(app: FastAPI) -> dict[str, int]:
    """The Actions run and job the URLs name."""
    state = app.state.emulator
    run = state.data["workflow_runs"][0]
    job = next(j for j in state.data["workflow_jobs"] if j["run_id"] == run["id"])
    assert find_repo(state, "demo", "calc")["name"] == "calc"
    installation = state.data["github_app"]["installations"]["demo"]
    return {"run_id": run["id"], "job_id": job["id"], "installation_id": installation}


def app_jwt_header() -> dict[str, str]:
    """The GitHub App's JWT, as the worker signs it."""
    return {"Authorization": f"Bearer {app_jwt(APP_ID, APP_KEY, time.time())}"}


def schema_errors(schema: dict[str, Any], answer: Any) -> list[str]:
    """Where the answer breaks the schema: missing required properties, wrong types, ..."""
    errors = sorted(Draft7Validator(schema).iter_errors(answer), key=lambda e: list(e.path))
    return [f"{'/'.join(map(str, e.path)) or '(top)'}: {e.message}" for e in errors]


@pytest.mark.parametrize("operation", OPERATIONS, ids=lambda op: op.key)
async def test_the_emulators_answer_has_githubs_shape(
    emulator: FastAPI, operation: Operation
) -> None:
    digest = SCHEMAS["operations"].get(operation.key)
    assert digest, f"no schema for {operation.key}: run python -m tests.contracts.github.extract"
    await emulator.state.ci.drain(30)  # a rerun asked for by an earlier operation has ended
    async with emulator_client(emulator) as http:
        response = await http.request(
            operation.method.upper(),
            f"/api/v3{operation.url.format(**ids_of(emulator))}",
            json=operation.body,
            headers=app_jwt_header() if operation.as_app else BOT,
        )
    assert response.status_code == operation.status, response.text
    errors = schema_errors(SCHEMAS["schemas"][digest], response.json())
    assert not errors, f"{len(errors)} departures from GitHub's schema:\n" + "\n".join(errors[:40])


def test_the_schemas_are_githubs_and_say_which_version() -> None:
    assert SCHEMAS["source"].startswith("npm @octokit/openapi@")
    assert {op.key for op in OPERATIONS} <= set(SCHEMAS["operations"])
