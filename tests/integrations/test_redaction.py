"""What the Jira, GitHub and Discord clients send is redacted on the way out, against the
emulators in-process and over real HTTP: the worker's own values and the known shapes."""

import json
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI

from integrations.discord.client import DiscordClient, Embed, EmbedField
from integrations.github.pulls import PullRequestClient
from integrations.github.repos import ensure_user_repository
from integrations.http import build_http_client
from integrations.jira.client import JiraClient
from integrations.security.secrets import SecretFinder
from tests.emulators.helpers import add_branch, new_emulator
from tests.integrations.conftest import Emulator

OWN = "worker-github-token-" + "9c2e71d4"
SHAPED = "ghp_" + "Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2Rr1Qq0Pp9Oo8"
TEST_OUTPUT = (
    "FAILED tests/test_env.py::test_settings\n"
    f"E   AssertionError: GITHUB_TOKEN={SHAPED} != ''\n"
    f"E   headers: Authorization: Bearer {OWN}\n"
)
BRANCH = "ticketsmith/DEMO-1"


@pytest.fixture
def app(tmp_path: Path) -> FastAPI:
    app = new_emulator(tmp_path)
    add_branch(tmp_path / "git" / "demo" / "calc.git", BRANCH, {"calc/x.py": "x = 1\n"})
    return app


@pytest.fixture(scope="module")
def secrets() -> SecretFinder:
    return SecretFinder({"the worker's github_token": OWN})


def assert_clean(text: str) -> None:
    assert OWN not in text and SHAPED not in text
    assert "[redacted: the worker's github_token]" in text
    assert "[redacted: GitHub token]" in text


def stored(app: FastAPI) -> str:
    """Everything the emulators keep, as one text."""
    return json.dumps(app.state.emulator.data)


@pytest.mark.parametrize("version", [3, 2], ids=["cloud-v3", "server-v2"])
async def test_a_jira_comment_goes_out_redacted(
    emulator: Emulator, app: FastAPI, secrets: SecretFinder, version: int
) -> None:
    jira = JiraClient(emulator.base_url, "bot@example.com", "t", version,
                      transport=emulator.transport, secrets=secrets)  # fmt: skip
    async with jira:
        posted = await jira.add_comment("DEMO-1", f"The tests failed:\n\n```\n{TEST_OUTPUT}```")
        assert_clean(posted.body)
        assert "FAILED tests/test_env.py::test_settings" in posted.body
    assert OWN not in stored(app) and SHAPED not in stored(app)


async def test_a_pull_request_and_its_comments_go_out_redacted(
    emulator: Emulator, app: FastAPI, secrets: SecretFinder
) -> None:
    api = f"{emulator.base_url}/api/v3"
    async with PullRequestClient(api, "t", transport=emulator.transport, secrets=secrets) as gh:
        pr = await gh.create_pull_request(
            "demo/calc", f"DEMO-1 {SHAPED}", f"Tests:\n{TEST_OUTPUT}", BRANCH, "main"
        )
        assert_clean(f"{pr.title}\n{pr.body}")
        updated = await gh.update_pull_request_body("demo/calc", pr.number, TEST_OUTPUT)
        assert_clean(updated.body or "")
        comment = await gh.comment_on_pull_request("demo/calc", pr.number, TEST_OUTPUT)
        assert_clean(comment.body)
        # Calls that skip the client's methods go through the same redaction.
        repo = await ensure_user_repository(gh, "notes", f"from {OWN} and {SHAPED}")
        assert repo.full_name.endswith("/notes")
    assert OWN not in stored(app) and SHAPED not in stored(app)


async def test_a_discord_message_goes_out_redacted(
    emulator: Emulator, app: FastAPI, secrets: SecretFinder
) -> None:
    embed = Embed(title="DEMO-1", description=TEST_OUTPUT,
                  fields=[EmbedField(name="token", value=OWN)])  # fmt: skip
    async with DiscordClient(transport=emulator.transport, secrets=secrets) as discord:
        await discord.send(
            f"{emulator.base_url}/api/webhooks/1000/demo-token", TEST_OUTPUT, embeds=[embed]
        )
    message = app.state.emulator.data["discord"]["messages"][0]
    assert_clean(message["content"])
    assert_clean(json.dumps(message["embeds"]))
    assert OWN not in stored(app) and SHAPED not in stored(app)


async def test_a_client_without_the_workers_values_still_redacts_the_shapes() -> None:
    sent: list[bytes] = []

    def record(request: httpx.Request) -> httpx.Response:
        sent.append(request.content)
        return httpx.Response(200, json={})

    async with build_http_client("http://x.test", transport=httpx.MockTransport(record)) as http:
        await http.post("/a", json={"body": f"key {SHAPED}", "n": 1, "list": [f"{SHAPED}"]})
        await http.post("/b", json={"body": "nothing to hide"})
        await http.post("/c", content=b"not json")
    body = json.loads(sent[0])
    assert body == {"body": "key [redacted: GitHub token]", "n": 1,
                    "list": ["[redacted: GitHub token]"]}  # fmt: skip
    assert sent[1:] == [b'{"body":"nothing to hide"}', b"not json"]
