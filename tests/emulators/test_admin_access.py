"""The emulators' admin routes (`/_emulator/...`) answer callers on this machine, callers with
TICKETSMITH_ADMIN_TOKEN, and anyone only with TICKETSMITH_ADMIN_ALLOW_UNAUTHENTICATED: every
route is tried, over real HTTP, from loopback and from this machine's other address."""

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

from access.admin import AdminAccess
from config import ROOT
from emulators.app import create_app
from harness.processes import clean_env
from tests.support.remote import Served, outward_address, served_everywhere

TOKEN = "emulator-admin-token"
OPEN = {("GET", "/_emulator/health"), ("GET", "/_emulator/actions/logs/1")}


def admin_requests(app: Any) -> list[tuple[str, str]]:
    """(method, path) of every `/_emulator` route the app documents, path parameters filled in."""
    found = []
    for path, operations in app.openapi()["paths"].items():
        if path.startswith("/_emulator/"):
            filled = re.sub(r"\{[^}]+\}", "1", path)
            found += [(method.upper(), filled) for method in operations]
    return found


async def answers(
    served: Served, headers: dict[str, str] | None, remote: bool
) -> dict[tuple[str, str], int]:
    """The status code of each admin request, from loopback or from elsewhere."""
    codes = {}
    async with served.remote(headers) if remote else served.local(headers) as http:
        for method, path in admin_requests(served.app):
            codes[(method, path)] = (await http.request(method, path, json={})).status_code
    return codes


async def test_every_admin_route_refuses_callers_elsewhere_by_default(tmp_path: Path) -> None:
    app = create_app(tmp_path / "state")
    assert len(admin_requests(app)) >= 15
    with served_everywhere(app) as served:
        elsewhere = await answers(served, None, remote=True)
        here = await answers(served, None, remote=False)
        async with served.remote() as http:
            refused = await http.get("/_emulator/state")
            api = await http.get("/rest/api/3/issue/DEMO-1", headers={"Authorization": "Bearer t"})
    guarded = {request for request in elsewhere if request not in OPEN}
    assert {request: elsewhere[request] for request in guarded} == dict.fromkeys(guarded, 401)
    assert elsewhere[("GET", "/_emulator/health")] == 200
    assert elsewhere[("GET", "/_emulator/actions/logs/1")] == 403  # its URL is signed instead
    assert all(code != 401 for code in here.values()), here
    assert refused.headers["www-authenticate"].startswith("Bearer")
    assert "answers only callers on this machine" in refused.json()["detail"]
    assert "TICKETSMITH_ADMIN_TOKEN" in refused.json()["detail"]
    assert api.status_code == 200  # the emulated APIs are not admin routes


async def test_the_admin_token_opens_them_to_callers_elsewhere(tmp_path: Path) -> None:
    app = create_app(tmp_path / "state", admin=AdminAccess(token=TOKEN))
    with served_everywhere(app) as served:
        with_token = await answers(served, {"Authorization": f"Bearer {TOKEN}"}, remote=True)
        wrong = await answers(served, {"Authorization": "Bearer guess"}, remote=True)
    assert all(code != 401 for code in with_token.values()), with_token
    assert {r: c for r, c in wrong.items() if r not in OPEN} == dict.fromkeys(
        [r for r in wrong if r not in OPEN], 401
    )


async def test_only_the_explicit_setting_opens_them_to_anyone(tmp_path: Path) -> None:
    app = create_app(tmp_path / "state", admin=AdminAccess(allow_anyone=True))
    with served_everywhere(app) as served:
        elsewhere = await answers(served, None, remote=True)
    assert all(code != 401 for code in elsewhere.values()), elsewhere


def emulators_process(url: str, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    host, port = url.removeprefix("http://").rsplit(":", 1)
    return subprocess.run(
        [sys.executable, "-m", "emulators", *args], cwd=ROOT, capture_output=True, text=True,
        env=clean_env(TICKETSMITH_EMULATOR_HOST=host, TICKETSMITH_EMULATOR_PORT=port, **env),
        timeout=120,
    )  # fmt: skip


def test_add_issue_sends_the_admin_token_to_emulators_elsewhere(tmp_path: Path) -> None:
    if outward_address() is None:
        pytest.skip("this machine has no address but loopback to call the emulators from")
    app = create_app(tmp_path / "state", admin=AdminAccess(token=TOKEN))
    with served_everywhere(app) as served:
        url = f"http://{served.outward}:{served.port}"
        refused = emulators_process(url, "add-issue", "DEMO", "From afar")
        added = emulators_process(
            url, "add-issue", "DEMO", "From afar", TICKETSMITH_ADMIN_TOKEN=TOKEN
        )
        key = added.stdout.split()[1].rstrip(";") if added.returncode == 0 else "none"
        issue = httpx.get(
            f"{served.local_url}/rest/api/3/issue/{key}", headers={"Authorization": "Bearer t"}
        )
    assert refused.returncode == 1 and "the emulators refused: 401" in refused.stderr
    assert "TICKETSMITH_ADMIN_TOKEN" in refused.stderr
    assert added.returncode == 0, added.stderr
    assert issue.json()["fields"]["summary"] == "From afar"
