"""A GitHub App's deliveries: signed with the app's webhook secret, carrying `installation`;
the app's own events (`<slug>[bot]`) ignored, mentions of it heard, and the pull request a
comment names looked up with an installation token."""

import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric import rsa
from pydantic import SecretStr
from temporalio.testing import WorkflowEnvironment

from config import Settings
from tests.support.github_app import APP_ID, private_pem
from tests.webhooks.payloads import SECRET, github_example, github_request, pull_on_branch
from webhooks.app import create_app
from webhooks.github_events import read_event

REPOSITORY = "Codertocat/Hello-World"  # the repository of GitHub's examples
BOT = "ticketsmith[bot]"
INSTALLATION = {"id": 2311213, "node_id": "MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9uMjMxMTIxMw=="}
KEY = rsa.generate_private_key(public_exponent=65537, key_size=2048)


def app_github(branch: str, calls: list[str]) -> httpx.MockTransport:
    """GitHub as an app sees it: its installation, a token for it, and pull request #2."""

    def answer(request: httpx.Request) -> httpx.Response:
        calls.append(f"{request.method} {request.url.path}")
        scheme, _, credential = request.headers["Authorization"].partition(" ")
        assert scheme == "Bearer"
        if request.url.path.endswith("/installation") or "/app/" in request.url.path:
            claims = jwt.decode(credential, KEY.public_key(), algorithms=["RS256"])
            assert claims["iss"] == APP_ID
        if request.url.path == f"/repos/{REPOSITORY}/installation":
            return httpx.Response(200, json={"id": INSTALLATION["id"]})
        if request.url.path == f"/app/installations/{INSTALLATION['id']}/access_tokens":
            token = {"token": "ghs_app", "expires_at": "2099-01-01T00:00:00Z"}
            return httpx.Response(201, json=token | {"permissions": {}})
        assert credential == "ghs_app"
        return httpx.Response(200, json=pull_on_branch(branch))

    return httpx.MockTransport(answer)


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    projects = tmp_path / "projects.toml"
    projects.write_text(f'[projects.WEB]\nrepository = "{REPOSITORY}"\n')
    return Settings(
        webhook_secret=SecretStr(SECRET),
        projects_file=projects,
        github_api_url="https://api.github.com",
        github_app_id=APP_ID,
        github_app_private_key=SecretStr(private_pem(KEY)),
        github_bot_login=BOT,
    )


@pytest.fixture
async def hooks(
    settings: Settings, time_skipping_env: WorkflowEnvironment
) -> AsyncIterator[tuple[httpx.AsyncClient, list[str], str]]:
    key = f"WEB-{uuid.uuid4().int % 10**6}"
    branch = f"ticketsmith/{key}-add-power"
    calls: list[str] = []
    app = create_app(settings, time_skipping_env.client, app_github(branch, calls))
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://hooks") as client:
            yield client, calls, key


def app_comment(body: str, sender: str = "octocat") -> dict[str, Any]:
    """A comment on pull request #2 as an app receives it (with its installation)."""
    payload = github_example("issue_comment", "created")
    payload["issue"].update(number=2, pull_request={"url": f"https://x/{REPOSITORY}/pulls/2"})
    payload["comment"]["body"] = body
    payload["sender"] = {"login": sender, "type": "Bot" if sender == BOT else "User"}
    return payload | {"installation": INSTALLATION}


async def test_an_app_delivery_is_read_and_its_pull_request_found_as_the_app(
    hooks: tuple[httpx.AsyncClient, list[str], str],
) -> None:
    http, calls, key = hooks
    answer = await http.post(
        "/webhooks/github", **github_request("issue_comment", app_comment("@ticketsmith retry"))
    )
    assert answer.status_code == 200
    # Found through the head branch the app read: the ticket exists in no history here.
    assert answer.json()["reason"] == f"no ticket owns this pull request: ticket-{key} never ran"
    assert calls == [
        f"GET /repos/{REPOSITORY}/installation",
        f"POST /app/installations/{INSTALLATION['id']}/access_tokens",
        f"GET /repos/{REPOSITORY}/pulls/2",
    ]

    own = app_comment("@ticketsmith retry", sender=BOT)
    ignored = await http.post("/webhooks/github", **github_request("issue_comment", own))
    assert ignored.json()["reason"] == f"own event: sent by {BOT}"

    for event in ("installation", "installation_repositories"):
        payload = {"action": "created", "installation": INSTALLATION, "sender": {"login": "o"}}
        response = await http.post("/webhooks/github", **github_request(event, payload))
        assert (response.status_code, response.json()["status"]) == (200, "ignored")


@pytest.mark.parametrize(
    ("body", "heard"),
    [
        ("@ticketsmith please retry", True),
        ("@ticketsmith[bot] please retry", True),
        ("thanks @TicketSmith!", True),
        ("@ticketsmithy please", False),
        ("@ticketsmith-fan says hi", False),
    ],
)
def test_an_app_is_mentioned_by_its_name(body: str, heard: bool) -> None:
    event = read_event("issue_comment", app_comment(body), BOT)
    assert isinstance(event, str) is not heard
