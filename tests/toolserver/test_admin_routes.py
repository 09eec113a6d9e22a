"""The tool server's faults and call log answer callers on this machine, callers with
TICKETSMITH_ADMIN_TOKEN, and anyone only with TICKETSMITH_ADMIN_ALLOW_UNAUTHENTICATED; MCP, the
documents, health and metrics stay open. Over real HTTP, from loopback and from elsewhere."""

import json
from pathlib import Path

import httpx
import pytest
from pydantic import SecretStr
from starlette.applications import Starlette

from access.admin import AdminAccess, admin_headers
from cli.commands import CommandError
from config import Settings
from emulators.app import create_app as create_emulators
from research.command import faults_for_the_run
from tests.support.remote import Served, outward_address, served_everywhere
from toolserver.app import JiraAccess, create_app
from toolserver.documents import seed_documents
from toolserver.faults import FaultProfile
from toolserver.search import LocalIndex

TOKEN = "tool-admin-token"
ADMIN = [
    ("GET", "/_faults"),
    ("PUT", "/_faults"),
    ("DELETE", "/_faults"),
    ("GET", "/_calls"),
    ("DELETE", "/_calls"),
]


def tool_app(data: Path, admin: AdminAccess | None = None) -> Starlette:
    """The tool server over a seeded emulator and corpus, with this admin rule."""
    emulators = create_emulators(data / "emulators", reset=True)
    transport = httpx.ASGITransport(emulators)
    jira = JiraAccess("http://jira.test", "ticketsmith@example.com", "t", transport=transport)
    seed_documents(data / "docs")
    url = "http://toolserver.test"
    return create_app(jira, data / "docs", LocalIndex.from_file(), FaultProfile(), url, admin)


async def codes(served: Served, remote: bool, headers: dict[str, str] | None = None) -> list[int]:
    """The status code of each admin request (an empty profile for the PUT)."""
    async with served.remote(headers) if remote else served.local(headers) as http:
        return [
            (await http.request(method, path, json=FaultProfile().model_dump())).status_code
            for method, path in ADMIN
        ]


async def test_faults_and_call_log_refuse_callers_elsewhere_by_default(tmp_path: Path) -> None:
    with served_everywhere(tool_app(tmp_path)) as served:
        elsewhere = await codes(served, remote=True)
        here = await codes(served, remote=False)
        async with served.remote() as http:
            refused = await http.get("/_calls")
            health = await http.get("/healthz")
            metrics = await http.get("/metrics")
    assert elsewhere == [401] * len(ADMIN)
    assert all(200 <= code < 300 for code in here), here
    assert "answers only callers on this machine" in refused.json()["detail"]
    assert (health.status_code, metrics.status_code) == (200, 200)


async def test_the_token_or_the_explicit_setting_open_them(tmp_path: Path) -> None:
    with served_everywhere(tool_app(tmp_path / "a", AdminAccess(TOKEN))) as served:
        with_token = await codes(served, True, {"Authorization": f"Bearer {TOKEN}"})
        wrong = await codes(served, True, {"Authorization": "Bearer guess"})
    with served_everywhere(tool_app(tmp_path / "b", AdminAccess(allow_anyone=True))) as anyone:
        open_to_all = await codes(anyone, remote=True)
    assert all(200 <= code < 300 for code in with_token), with_token
    assert wrong == [401] * len(ADMIN)
    assert all(200 <= code < 300 for code in open_to_all), open_to_all


async def test_research_faults_send_the_admin_token(tmp_path: Path) -> None:
    profile = tmp_path / "faults.json"
    profile.write_text(json.dumps({"faults": [{"tool": "search_web", "status_code": 503}]}))
    if outward_address() is None:
        pytest.skip("this machine has no address but loopback to call the tool server from")
    settings = Settings(admin_token=SecretStr(TOKEN))
    with served_everywhere(tool_app(tmp_path, AdminAccess(TOKEN))) as served:
        url = f"http://{served.outward}:{served.port}"
        async with faults_for_the_run(url, profile, admin_headers(settings)):
            async with served.local() as http:
                during = (await http.get("/_faults")).json()
        with pytest.raises(CommandError, match="401"):
            async with faults_for_the_run(url, profile):
                pass
    assert [fault["tool"] for fault in during["faults"]] == ["search_web"]
