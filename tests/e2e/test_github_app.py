"""DEMO-1 end to end with the worker acting as a GitHub App: the branch pushed and the pull
request opened with installation tokens that expire inside the renewal margin."""

import json
from collections.abc import AsyncIterator

import httpx
import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from embedded.demo import drive
from embedded.stack import Stack
from emulators.app import DEFAULT_SEED
from harness.stacks import stack_settings
from tests.e2e.stacks import pull_requests, running
from tests.support.github_app import APP_ID, private_pem, public_pem
from workflows.ticket.messages import Status

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
async def stack(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Stack]:
    """The stack with a GitHub App: its key on the worker, its public key in the seed."""
    data = tmp_path_factory.mktemp("stack")
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = data / "app.pem"
    pem.write_text(private_pem(key))
    pem.chmod(0o600)
    seed = json.loads(DEFAULT_SEED.read_text())
    for repo in [*seed["repositories"], *seed.get("gitlab_projects", [])]:
        repo["source"] = str(DEFAULT_SEED.parent / repo["source"])
    # Four-minute tokens sit inside the worker's five-minute margin: each use renews them.
    seed["github_app"] = {"id": APP_ID, "public_key": public_pem(key), "token_seconds": 240}
    seed_file = data / "seed.json"
    seed_file.write_text(json.dumps(seed))
    settings = stack_settings(
        data,
        github_app_id=APP_ID,
        github_app_private_key_path=pem,
        emulator_seed_file=seed_file,
    )
    async with running(settings) as started:
        yield started


async def test_the_demo_ticket_reaches_a_pull_request_as_the_app(stack: Stack) -> None:
    settings = stack.settings
    result = await drive(settings)
    assert result.status == Status.COMPLETED
    pulls = await pull_requests(settings)
    assert [p["head"]["ref"] for p in pulls] == [result.branch]

    async with httpx.AsyncClient(base_url=settings.jira_base_url, timeout=10) as http:
        requests = (await http.get("/_emulator/requests")).json()
        state = (await http.get("/_emulator/state")).json()
    paths = [(r["method"], r["path"], r["status_code"]) for r in requests]
    assert ("GET", "/api/v3/repos/demo/calc/installation", 200) in paths
    exchanges = [p for p in paths if p[1].endswith("/access_tokens")]
    assert len(exchanges) >= 2 and {p[2] for p in exchanges} == {201}
    # Renewed as the run went on: the worker asked for a token each time it needed one.
    assert len(state["github_app_tokens"]) == len(exchanges)
    pushes = [p for p in paths if p[1] == "/demo/calc.git/git-receive-pack"]
    assert pushes and {p[2] for p in pushes} == {200}
    assert not [p for p in paths if p[2] == 401]
