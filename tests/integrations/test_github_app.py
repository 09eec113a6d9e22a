"""A GitHub App's JWT and installation tokens, against the emulator's app endpoints: lookup,
exchange, cache, renewal near expiry and on 401, through the REST client and git."""

import time
from datetime import timedelta
from pathlib import Path

import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.hazmat.primitives.asymmetric.rsa import RSAPrivateKey
from fastapi import FastAPI
from temporalio.exceptions import ApplicationError

from integrations.git.client import GitError, GitWorkspace
from integrations.github.app import InstallationTokens, app_jwt
from integrations.github.auth import StaticToken
from integrations.github.client import GitHubClient
from tests.emulators.helpers import emulator_client
from tests.integrations.conftest import Emulator
from tests.support.github_app import APP_ID, expire_tokens, install_app

BRANCH = "ticketsmith/DEMO-1-app"


@pytest.fixture(scope="module")
def key() -> RSAPrivateKey:
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


def tokens_for(emulator: Emulator, key: RSAPrivateKey, app_id: str = APP_ID, **kw: object):
    api = f"{emulator.base_url}/api/v3"
    return InstallationTokens(app_id, key, api, emulator.transport, **kw)  # type: ignore[arg-type]


async def api_calls(app: FastAPI) -> list[tuple[str, str, int]]:
    async with emulator_client(app) as http:
        log = (await http.get("/_emulator/requests")).json()
    return [(r["method"], r["path"], r["status_code"]) for r in log]


def test_jwt_claims_follow_githubs_rules(key: RSAPrivateKey) -> None:
    now = 1_700_000_000.4
    token = app_jwt("123", key, now)
    assert jwt.get_unverified_header(token)["alg"] == "RS256"
    claims = jwt.decode(
        token, key.public_key(), algorithms=["RS256"], options={"verify_exp": False}
    )
    assert claims == {"iat": 1_700_000_000 - 60, "exp": claims["exp"], "iss": "123"}
    assert now < claims["exp"] <= now + 600
    # A client id (GitHub's newer issuer) stays a string.
    client_id = jwt.decode(
        app_jwt("Iv23liAbC", key, now), key.public_key(), algorithms=["RS256"],
        options={"verify_exp": False},
    )  # fmt: skip
    assert client_id["iss"] == "Iv23liAbC"


async def test_installation_lookup_exchange_and_cache(
    emulator: Emulator, key: RSAPrivateKey
) -> None:
    await install_app(emulator.app, key)
    tokens = tokens_for(emulator, key)

    token = await tokens.token("demo/calc")
    assert token.startswith("ghs_")
    held = tokens.cached("demo/calc")
    assert held is not None
    assert held.permissions["contents"] == "write"
    assert held.permissions["pull_requests"] == "write"
    assert held.repository_selection == "all"
    assert 3500 < held.expires_at - time.time() <= 3600
    installation = await tokens.installation_id("demo/calc")
    assert await api_calls(emulator.app) == [
        ("GET", "/api/v3/repos/demo/calc/installation", 200),
        ("POST", f"/api/v3/app/installations/{installation}/access_tokens", 201),
    ]

    # Cached: no call at all; another repository of the same account shares the token.
    assert await tokens.token("demo/calc") == token
    assert await tokens.token("demo/sizes") == token
    assert tokens.exchanges == 1
    assert [c[1] for c in await api_calls(emulator.app)][2:] == [
        "/api/v3/repos/demo/sizes/installation"
    ]


async def test_a_token_near_its_expiry_is_renewed(emulator: Emulator, key: RSAPrivateKey) -> None:
    # GitHub's tokens last an hour; these four minutes, inside the five-minute margin.
    await install_app(emulator.app, key, token_seconds=240)
    tokens = tokens_for(emulator, key)
    first = await tokens.token("demo/calc")
    second = await tokens.token("demo/calc")
    assert second != first
    assert tokens.exchanges == 2

    # Without a margin the same token is still good.
    unhurried = tokens_for(emulator, key, margin=timedelta(0))
    assert await unhurried.token("demo/calc") == await unhurried.token("demo/calc")
    assert unhurried.exchanges == 1


async def test_an_api_call_refused_with_401_renews_the_token(
    emulator: Emulator, key: RSAPrivateKey
) -> None:
    await install_app(emulator.app, key)
    tokens = tokens_for(emulator, key)
    api = f"{emulator.base_url}/api/v3"
    async with GitHubClient(api, tokens, transport=emulator.transport) as github:
        assert (await github.get_repository("demo/calc")).full_name == "demo/calc"
        first = await tokens.token("demo/calc")
        await expire_tokens(emulator.app)
        assert (await github.get_repository("demo/calc")).full_name == "demo/calc"
    assert await tokens.token("demo/calc") != first
    assert tokens.exchanges == 2
    calls = await api_calls(emulator.app)
    assert [c[2] for c in calls if c[1] == "/api/v3/repos/demo/calc"] == [200, 401, 200]


async def test_an_app_installed_again_is_found_under_its_new_installation(
    emulator: Emulator, key: RSAPrivateKey
) -> None:
    await install_app(emulator.app, key)
    tokens = tokens_for(emulator, key)
    first = await tokens.installation_id("demo/calc")
    await tokens.token("demo/calc")
    async with emulator_client(emulator.app) as http:
        removed = await http.delete("/_emulator/github/app/installations/demo")
    assert removed.json() == {"installation_id": first, "expired": 1}
    api = f"{emulator.base_url}/api/v3"
    async with GitHubClient(api, tokens, transport=emulator.transport) as github:
        assert (await github.get_repository("demo/calc")).full_name == "demo/calc"
    assert await tokens.installation_id("demo/calc") != first
    calls = [c for c in await api_calls(emulator.app) if c[1] != "/api/v3/repos/demo/calc"]
    assert calls[-3:] == [
        ("POST", f"/api/v3/app/installations/{first}/access_tokens", 404),
        ("GET", "/api/v3/repos/demo/calc/installation", 200),
        ("POST", f"/api/v3/app/installations/{first + 1}/access_tokens", 201),
    ]

    # Removed for good: the call says so, not that a token URL was not found.
    await install_app(emulator.app, key, repositories=["demo/sizes"])
    async with emulator_client(emulator.app) as http:
        await http.delete("/_emulator/github/app/installations/demo")
    async with GitHubClient(api, tokens, transport=emulator.transport) as github:
        with pytest.raises(ApplicationError) as gone:
            await github.get_repository("demo/calc")
    assert gone.value.type == "GitHubAppNotInstalled"


async def test_a_personal_token_refused_is_not_retried(
    emulator: Emulator, key: RSAPrivateKey
) -> None:
    await install_app(emulator.app, key)
    expired = await tokens_for(emulator, key).token("demo/calc")
    await expire_tokens(emulator.app)
    api = f"{emulator.base_url}/api/v3"
    async with GitHubClient(api, expired, transport=emulator.transport) as github:
        with pytest.raises(ApplicationError) as refused:
            await github.get_repository("demo/calc")
    assert refused.value.type == "GitHubUnauthorized"
    assert "Bad credentials" in refused.value.message


@pytest.mark.parametrize("emulator", ["http"], indirect=True)
async def test_push_and_pull_request_survive_a_token_expired_midway(
    emulator: Emulator, key: RSAPrivateKey, tmp_path: Path
) -> None:
    await install_app(emulator.app, key)
    tokens = tokens_for(emulator, key)
    remote = f"{emulator.base_url}/demo/calc.git"
    workspace = GitWorkspace(tmp_path / "ws", remote, token=tokens)
    first = await workspace.commit_and_push(BRANCH, "main", {"a.txt": "one\n"}, "one")
    assert first.changed

    await expire_tokens(emulator.app)
    second = await workspace.commit_and_push(BRANCH, "main", {"a.txt": "two\n"}, "two")
    assert second.changed
    assert tokens.exchanges == 2
    code, head = await workspace.run_git("ls-remote", remote, f"refs/heads/{BRANCH}")
    assert (code, head.split()[0]) == (0, second.sha)

    await expire_tokens(emulator.app)
    api = f"{emulator.base_url}/api/v3"
    async with GitHubClient(api, tokens, transport=emulator.transport) as github:
        pr = await github.create_pull_request("demo/calc", "DEMO-1: app", "body", BRANCH, "main")
    assert (pr.head, pr.state) == (BRANCH, "open")
    assert tokens.exchanges == 3

    # The emulator's git hosting refuses an expired installation token as GitHub does.
    await expire_tokens(emulator.app)
    stale = await tokens.token("demo/calc")
    refused = GitWorkspace(tmp_path / "stale", remote, token=StaticToken(stale))
    with pytest.raises(GitError) as failed:
        await refused.fetch_origin()
    assert failed.value.auth_failed
    assert stale not in str(failed.value)


async def test_an_unknown_app_or_a_wrong_key_is_one_clear_error(
    emulator: Emulator, key: RSAPrivateKey
) -> None:
    await install_app(emulator.app, key)
    other_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    for tokens in (tokens_for(emulator, key, app_id="999"), tokens_for(emulator, other_key)):
        with pytest.raises(ApplicationError) as refused:
            await tokens.token("demo/calc")
        assert (refused.value.type, refused.value.non_retryable) == ("GitHubAppAuthFailed", True)
        assert "TICKETSMITH_GITHUB_APP_ID" in refused.value.message
        assert "TICKETSMITH_GITHUB_APP_PRIVATE_KEY_PATH" in refused.value.message


async def test_a_repository_without_the_app_says_to_install_it(
    emulator: Emulator, key: RSAPrivateKey
) -> None:
    await install_app(emulator.app, key, repositories=["demo/sizes"])
    tokens = tokens_for(emulator, key)
    assert (await tokens.token("demo/sizes")).startswith("ghs_")
    with pytest.raises(ApplicationError) as missing:
        await tokens.token("demo/calc")
    assert missing.value.type == "GitHubAppNotInstalled"
    assert "not installed on demo/calc" in missing.value.message
    with pytest.raises(ApplicationError) as nameless:
        await tokens.token(None)
    assert nameless.value.type == "GitHubAppNoRepository"
