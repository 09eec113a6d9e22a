"""Injected faults: error rates, fixed and random latency, 429 with Retry-After, lost answers,
and faults set from a file or the seed."""

import json
import shutil
from pathlib import Path

import httpx
import pytest

from emulators.app import DEFAULT_SEED, create_app
from faults.injector import Fault, FaultInjector
from tests.emulators.helpers import BOT, emulator_client, new_emulator

ISSUE = "/rest/api/3/issue/DEMO-1"
COMMENTS = f"{ISSUE}/comment"
COMMENT = {"body": {"type": "doc", "version": 1, "content": [{"type": "paragraph", "content": [
    {"type": "text", "text": "hello"}]}]}}  # fmt: skip


async def log_of(http: httpx.AsyncClient) -> list[dict]:
    return (await http.get("/_emulator/requests")).json()


async def test_error_rate_picks_among_status_codes_repeatably(tmp_path: Path) -> None:
    fault = {"path": "/rest/api/.*", "status_code": [500, 502, 503], "rate": 0.3, "times": None}
    outcomes = []
    for run in ("a", "b"):
        async with emulator_client(new_emulator(tmp_path / run)) as http:
            await http.put("/_emulator/faults", json={"seed": 7, "faults": [fault]})
            outcomes.append([(await http.get(ISSUE)).status_code for _ in range(200)])
    assert outcomes[0] == outcomes[1]  # the same seed, the same faults
    errors = [code for code in outcomes[0] if code != 200]
    assert set(errors) == {500, 502, 503}
    assert 40 <= len(errors) <= 80


async def test_unseeded_rate_still_applies(tmp_path: Path) -> None:
    async with emulator_client(new_emulator(tmp_path)) as http:
        await http.post("/_emulator/faults", json={"path": ISSUE, "status_code": 500, "rate": 0.5,
                                                   "times": None})  # fmt: skip
        codes = [(await http.get(ISSUE)).status_code for _ in range(100)]
    assert 20 <= codes.count(500) <= 80


async def test_fixed_and_random_latency(tmp_path: Path) -> None:
    async with emulator_client(new_emulator(tmp_path)) as http:
        faults = [
            {"path": ISSUE, "delay_seconds": 0.02, "times": None},
            {"path": COMMENTS, "delay_seconds": 0.01, "max_delay_seconds": 0.05, "times": None},
        ]
        await http.put("/_emulator/faults", json={"faults": faults})
        for _ in range(5):
            assert (await http.get(ISSUE)).status_code == 200
            assert (await http.get(COMMENTS)).status_code == 200
        log = await log_of(http)
    fixed = [e["fault"]["delay_seconds"] for e in log if e["path"] == ISSUE]
    random = [e["fault"]["delay_seconds"] for e in log if e["path"] == COMMENTS]
    assert fixed == [0.02] * 5
    assert all(0.01 <= d <= 0.05 for d in random) and len(set(random)) > 1


async def test_latency_and_errors_combine(tmp_path: Path) -> None:
    async with emulator_client(new_emulator(tmp_path)) as http:
        faults = [
            {"path": ISSUE, "delay_seconds": 0.01, "times": None},
            {"path": ISSUE, "status_code": 502, "times": 1},
        ]
        await http.put("/_emulator/faults", json={"faults": faults})
        assert (await http.get(ISSUE)).status_code == 502
        assert (await http.get(ISSUE)).status_code == 200
        log = await log_of(http)
        assert log[0]["fault"] == {"delay_seconds": 0.01, "status_code": 502, "when": "before"}
        assert log[1]["fault"] == {"delay_seconds": 0.01}
        remaining = (await http.get("/_emulator/faults")).json()["faults"]
    assert [f["times"] for f in remaining] == [None, 0]


async def test_rate_limits_answer_in_each_services_shape(tmp_path: Path) -> None:
    async with emulator_client(new_emulator(tmp_path)) as http:
        for path in (ISSUE, "/api/v3/repos/demo/calc", "/api/webhooks/1000/demo-token"):
            await http.post("/_emulator/faults", json={"path": path, "status_code": 429,
                                                       "retry_after": 2.5})  # fmt: skip
        jira = await http.get(ISSUE)
        github = await http.get("/api/v3/repos/demo/calc", headers=BOT)
        discord = await http.post("/api/webhooks/1000/demo-token", json={"content": "x"})
    assert [r.status_code for r in (jira, github, discord)] == [429, 429, 429]
    assert {r.headers["retry-after"] for r in (jira, github, discord)} == {"2.5"}
    assert jira.json() == {"errorMessages": ["Rate limit exceeded."], "errors": {}}
    assert github.json()["message"].startswith("API rate limit exceeded")
    assert discord.json() == {
        "message": "You are being rate limited.",
        "global": False,
        "retry_after": 2.5,
    }


async def test_before_has_no_effect_and_after_loses_only_the_answer(tmp_path: Path) -> None:
    app = new_emulator(tmp_path)
    async with emulator_client(app) as http:
        await http.post("/_emulator/faults", json={"path": COMMENTS, "status_code": 503})
        assert (await http.post(COMMENTS, json=COMMENT, headers=BOT)).status_code == 503
        assert app.state.emulator.data["issues"]["DEMO-1"]["comments"] == []
        lost = {"path": COMMENTS, "status_code": 500, "when": "after"}
        await http.post("/_emulator/faults", json=lost)
        response = await http.post(COMMENTS, json=COMMENT, headers=BOT)
        assert response.status_code == 500
        assert response.json()["errorMessages"] == ["Internal server error (injected fault)."]
        assert len(app.state.emulator.data["issues"]["DEMO-1"]["comments"]) == 1
        log = await log_of(http)
    assert [e["fault"]["when"] for e in log] == ["before", "after"]


async def test_faults_from_a_file_and_from_the_seed(tmp_path: Path) -> None:
    faults_file = tmp_path / "faults.json"
    faults_file.write_text(json.dumps({"seed": 1, "faults": [
        {"path": ISSUE, "method": "GET", "status_code": 503, "times": 2}]}))  # fmt: skip
    app = create_app(tmp_path / "a", faults=FaultInjector.from_file(faults_file))
    async with emulator_client(app) as http:
        codes = [(await http.get(ISSUE)).status_code for _ in range(3)]
    assert codes == [503, 503, 200]

    seed = json.loads(DEFAULT_SEED.read_text())
    seed["faults"] = {"faults": [{"path": "/api/v3/.*", "status_code": 502, "times": None}]}
    (tmp_path / "seed").mkdir()
    seed_file = tmp_path / "seed" / "seed.json"
    seed_file.write_text(json.dumps(seed))
    shutil.copytree(DEFAULT_SEED.parent / "seed", tmp_path / "seed" / "seed")
    async with emulator_client(create_app(tmp_path / "b", seed_file=seed_file)) as http:
        assert (await http.get("/api/v3/repos/demo/calc", headers=BOT)).status_code == 502
        assert (await http.get(ISSUE)).status_code == 200


@pytest.mark.parametrize(
    "bad", [{"path": "("}, {"path": ".*", "delay_seconds": 2, "max_delay_seconds": 1}]
)
def test_a_fault_needs_a_valid_pattern_and_delay_range(bad: dict) -> None:
    with pytest.raises(ValueError):
        Fault.model_validate(bad)
