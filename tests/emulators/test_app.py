"""The emulator app: health, request log, persistence, reset and injected faults."""

import json
from pathlib import Path

from emulators.app import create_app
from tests.emulators.helpers import BOT, add_branch, emulator_client, new_emulator

COMMENT = {
    "body": {
        "type": "doc",
        "version": 1,
        "content": [{"type": "paragraph", "content": [{"type": "text", "text": "kept"}]}],
    }
}


async def test_health(tmp_path: Path) -> None:
    async with emulator_client(new_emulator(tmp_path)) as http:
        response = await http.get("/_emulator/health")
    assert (response.status_code, response.json()) == (200, {"status": "ok"})


async def test_request_log_records_and_clears(tmp_path: Path) -> None:
    async with emulator_client(new_emulator(tmp_path)) as http:
        await http.get("/rest/api/3/issue/DEMO-1", params={"fields": "summary"})
        await http.post("/rest/api/3/issue/DEMO-1/comment", json=COMMENT, headers=BOT)
        await http.get("/rest/api/3/issue/NOPE-1")
        log = (await http.get("/_emulator/requests")).json()
        assert [(e["method"], e["path"], e["status_code"]) for e in log] == [
            ("GET", "/rest/api/3/issue/DEMO-1", 200),
            ("POST", "/rest/api/3/issue/DEMO-1/comment", 201),
            ("GET", "/rest/api/3/issue/NOPE-1", 404),
        ]
        assert log[0]["query"] == {"fields": "summary"}
        assert log[0]["fault"] is None
        assert "body" not in log[0]
        assert log[1]["body"] == COMMENT
        assert log[1]["timestamp"]
        assert (await http.delete("/_emulator/requests")).status_code == 204
        assert (await http.get("/_emulator/requests")).json() == []


async def test_state_survives_a_new_app(tmp_path: Path) -> None:
    async with emulator_client(new_emulator(tmp_path)) as http:
        posted = await http.post("/rest/api/3/issue/DEMO-1/comment", json=COMMENT, headers=BOT)
        assert posted.status_code == 201
    saved = json.loads((tmp_path / "state.json").read_text())
    assert saved["issues"]["DEMO-1"]["comments"][0]["body"] == COMMENT["body"]
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".state-")] == []
    async with emulator_client(new_emulator(tmp_path)) as http:
        comments = (await http.get("/rest/api/3/issue/DEMO-1/comment")).json()["comments"]
        state = (await http.get("/_emulator/state")).json()
    assert [c["id"] for c in comments] == [posted.json()["id"]]
    assert state["issues"]["DEMO-1"]["comments"][0]["id"] == posted.json()["id"]


async def test_reset_wipes_state_and_repositories(tmp_path: Path) -> None:
    async with emulator_client(new_emulator(tmp_path)) as http:
        await http.post("/rest/api/3/issue/DEMO-1/comment", json=COMMENT, headers=BOT)
    bare = tmp_path / "git" / "demo" / "calc.git"
    add_branch(bare, "leftover", {"a.txt": "a"})
    async with emulator_client(create_app(tmp_path, reset=True)) as http:
        issue = (await http.get("/rest/api/3/issue/DEMO-1")).json()
    assert issue["fields"]["comment"]["total"] == 0
    assert (bare / "HEAD").is_file()
    assert not (bare / "refs" / "heads" / "leftover").exists()


async def test_custom_seed_file(tmp_path: Path) -> None:
    seed = tmp_path / "seed.json"
    seed.write_text(
        json.dumps(
            {
                "users": [{"accountId": "ticketsmith-bot", "displayName": "bot"}],
                "projects": [{"id": "1", "key": "OPS", "name": "Ops"}],
                "issues": [
                    {
                        "key": "OPS-7",
                        "project": "OPS",
                        "summary": "Rotate keys",
                        "description": "Use **new** keys",
                        "labels": [],
                        "status": "In Progress",
                        "reporter": "ticketsmith-bot",
                    }
                ],
            }
        )
    )
    async with emulator_client(create_app(tmp_path / "state", seed_file=seed)) as http:
        issue = (await http.get("/rest/api/2/issue/OPS-7")).json()
    assert issue["fields"]["description"] == "Use *new* keys"  # wiki markup on v2
    assert issue["fields"]["status"]["name"] == "In Progress"


async def test_injected_fault_answers_then_clears(tmp_path: Path) -> None:
    async with emulator_client(new_emulator(tmp_path)) as http:
        fault = {
            "path": "/rest/api/3/issue/DEMO-1",
            "method": "GET",
            "status_code": 503,
            "headers": {"Retry-After": "2"},
            "times": 1,
        }
        assert (await http.post("/_emulator/faults", json=fault)).status_code == 201
        failed = await http.get("/rest/api/3/issue/DEMO-1")
        assert failed.status_code == 503
        assert failed.headers["retry-after"] == "2"
        assert (await http.get("/rest/api/3/issue/DEMO-1")).status_code == 200
        log = (await http.get("/_emulator/requests")).json()
        assert [e["status_code"] for e in log] == [503, 200]
        forever = fault | {"times": None, "status_code": 500}
        await http.post("/_emulator/faults", json=forever)
        assert (await http.get("/rest/api/3/issue/DEMO-1")).status_code == 500
        assert (await http.get("/rest/api/3/issue/DEMO-1")).status_code == 500
        assert (await http.delete("/_emulator/faults")).status_code == 204
        assert (await http.get("/rest/api/3/issue/DEMO-1")).status_code == 200
