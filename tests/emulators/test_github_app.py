"""The emulated GitHub App: the JWT checked as GitHub checks it, installation tokens in
GitHub's shapes, accepted until they expire and then refused with 401 Bad credentials."""

import json
import time
from pathlib import Path

import httpx
import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.hazmat.primitives.asymmetric.rsa import RSAPrivateKey
from fastapi import FastAPI

from emulators.app import DEFAULT_SEED, create_app
from tests.emulators.helpers import emulator_client, new_emulator
from tests.support.github_app import APP_ID, expire_tokens, install_app, public_pem


@pytest.fixture(scope="module")
def key() -> RSAPrivateKey:
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


def signed(key: RSAPrivateKey, iat: float, exp: float, iss: str = APP_ID) -> dict[str, str]:
    token = jwt.encode({"iat": int(iat), "exp": int(exp), "iss": iss}, key, algorithm="RS256")
    return {"Authorization": f"Bearer {token}"}


def good_jwt(key: RSAPrivateKey) -> dict[str, str]:
    now = time.time()
    return signed(key, now - 60, now + 540)


async def installation_token(http: httpx.AsyncClient, key: RSAPrivateKey) -> str:
    found = await http.get("/api/v3/repos/demo/calc/installation", headers=good_jwt(key))
    number = found.json()["id"]
    made = await http.post(
        f"/api/v3/app/installations/{number}/access_tokens", headers=good_jwt(key)
    )
    assert made.status_code == 201
    return str(made.json()["token"])


async def test_installation_and_token_in_githubs_shapes(tmp_path: Path, key: RSAPrivateKey) -> None:
    app = new_emulator(tmp_path)
    await install_app(app, key)
    async with emulator_client(app) as http:
        found = await http.get("/api/v3/repos/demo/calc/installation", headers=good_jwt(key))
        assert found.status_code == 200
        installation = found.json()
        assert installation["account"]["login"] == "demo"
        assert installation["app_id"] == int(APP_ID)
        assert installation["repository_selection"] == "all"
        assert installation["access_tokens_url"].endswith(
            f"/api/v3/app/installations/{installation['id']}/access_tokens"
        )
        path = f"/api/v3/app/installations/{installation['id']}/access_tokens"
        made = await http.post(path, headers=good_jwt(key))
        assert made.status_code == 201
        body = made.json()
        assert set(body) == {"token", "expires_at", "permissions", "repository_selection"}
        assert body["token"].startswith("ghs_")
        assert body["expires_at"].endswith("Z")
        assert body["permissions"]["metadata"] == "read"
        assert (await http.post("/api/v3/app/installations/1/access_tokens",
                                headers=good_jwt(key))).status_code == 404  # fmt: skip


async def test_the_jwt_is_checked_as_github_checks_it(tmp_path: Path, key: RSAPrivateKey) -> None:
    app = new_emulator(tmp_path)
    path = "/api/v3/repos/demo/calc/installation"
    now = time.time()
    async with emulator_client(app) as http:
        # No app known yet.
        assert (await http.get(path, headers=good_jwt(key))).status_code == 401
        await install_app(app, key)
        other = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        refusals = {
            "A JSON web token could not be decoded": good_jwt(other),
            "Integration not found": signed(key, now - 60, now + 540, iss="999"),
            "is too far in the future": signed(key, now - 60, now + 900),
            "the future time at which the assertion expires": signed(key, now - 700, now - 100),
        }
        for message, headers in refusals.items():
            answer = await http.get(path, headers=headers)
            assert answer.status_code == 401
            assert message in answer.json()["message"]
        # The app authenticates with its JWT here, never with an installation token.
        assert (await http.get(path, headers={"Authorization": "Bearer ghs_x"})).status_code == 401


async def test_installation_tokens_work_until_they_expire(
    tmp_path: Path, key: RSAPrivateKey
) -> None:
    app = new_emulator(tmp_path)
    await install_app(app, key)
    async with emulator_client(app) as http:
        token = await installation_token(http, key)
        auth = {"Authorization": f"Bearer {token}"}
        assert (await http.get("/api/v3/repos/demo/calc", headers=auth)).status_code == 200
        assert await expire_tokens(app) == 1
        refused = await http.get("/api/v3/repos/demo/calc", headers=auth)
        assert (refused.status_code, refused.json()["message"]) == (401, "Bad credentials")
        unknown = {"Authorization": "Bearer ghs_never-issued"}
        assert (await http.get("/api/v3/repos/demo/calc", headers=unknown)).status_code == 401
        # Personal tokens are taken as before.
        personal = {"Authorization": "Bearer ghp_anything"}
        assert (await http.get("/api/v3/repos/demo/calc", headers=personal)).status_code == 200


async def test_the_app_can_come_from_the_seed(tmp_path: Path, key: RSAPrivateKey) -> None:
    seed = json.loads(DEFAULT_SEED.read_text())
    seed["github_app"] = {
        "id": APP_ID,
        "public_key": public_pem(key),
        "repositories": ["demo/calc"],
    }
    for repo in [*seed["repositories"], *seed.get("gitlab_projects", [])]:
        repo["source"] = str(DEFAULT_SEED.parent / repo["source"])
    seed_file = tmp_path / "seed.json"
    seed_file.write_text(json.dumps(seed))
    app: FastAPI = create_app(tmp_path / "state", seed_file)
    async with emulator_client(app) as http:
        assert (await installation_token(http, key)).startswith("ghs_")
        other = await http.get("/api/v3/repos/demo/sizes/installation", headers=good_jwt(key))
        assert other.status_code == 404
