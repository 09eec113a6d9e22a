"""GitHub credentials from the environment: a personal token or a GitHub App, never both, and
a bad key is one error naming the setting."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from pydantic import ValidationError

from config import ROOT, Settings
from integrations.github.app import GitHubAppConfigError, InstallationTokens
from integrations.github.auth import StaticToken, github_token_source
from tests.support.github_app import private_pem


@pytest.fixture(autouse=True)
def no_github_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [n for n in os.environ if n.startswith("TICKETSMITH_GITHUB")]:
        monkeypatch.delenv(name)


def settings_from(monkeypatch: pytest.MonkeyPatch, **env: str) -> Settings:
    for name, value in env.items():
        monkeypatch.setenv(f"TICKETSMITH_{name}", value)
    return Settings(_env_file=None)  # type: ignore[call-arg]


@pytest.fixture(scope="module")
def pem_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("app") / "app.pem"
    path.write_text(private_pem(rsa.generate_private_key(public_exponent=65537, key_size=2048)))
    return path


def test_a_personal_token_alone_is_used_as_it_is(monkeypatch: pytest.MonkeyPatch) -> None:
    source = github_token_source(settings_from(monkeypatch, GITHUB_TOKEN="ghp_x"))
    assert isinstance(source, StaticToken)


async def test_an_app_with_its_key_file_gives_installation_tokens(
    monkeypatch: pytest.MonkeyPatch, pem_file: Path
) -> None:
    # An empty personal token (as the env example leaves it) is no second identity.
    settings = settings_from(
        monkeypatch, GITHUB_APP_ID="123", GITHUB_APP_PRIVATE_KEY_PATH=str(pem_file),
        GITHUB_TOKEN="",
    )  # fmt: skip
    source = github_token_source(settings)
    assert isinstance(source, InstallationTokens)
    assert source.app_id == "123"
    monkeypatch.delenv("TICKETSMITH_GITHUB_APP_PRIVATE_KEY_PATH")
    text = settings_from(monkeypatch, GITHUB_APP_PRIVATE_KEY=pem_file.read_text())
    assert isinstance(github_token_source(text), InstallationTokens)
    assert pem_file.read_text() not in repr(text)


@pytest.mark.parametrize(
    ("env", "named"),
    [
        (
            {"GITHUB_TOKEN": "ghp_x", "GITHUB_APP_ID": "123", "GITHUB_APP_PRIVATE_KEY": "k"},
            ["TICKETSMITH_GITHUB_TOKEN and TICKETSMITH_GITHUB_APP_ID are both set"],
        ),
        (
            {"GITHUB_APP_ID": "123"},
            ["TICKETSMITH_GITHUB_APP_PRIVATE_KEY_PATH", "TICKETSMITH_GITHUB_APP_PRIVATE_KEY "],
        ),
        (
            {
                "GITHUB_APP_ID": "123",
                "GITHUB_APP_PRIVATE_KEY": "k",
                "GITHUB_APP_PRIVATE_KEY_PATH": "/k.pem",
            },
            ["exactly one private key", "not both"],
        ),  # fmt: skip
        ({"GITHUB_APP_PRIVATE_KEY": "k"}, ["without TICKETSMITH_GITHUB_APP_ID"]),
    ],
)
def test_conflicting_or_missing_settings_are_refused(
    monkeypatch: pytest.MonkeyPatch, env: dict[str, str], named: list[str]
) -> None:
    with pytest.raises(ValidationError) as refused:
        settings_from(monkeypatch, **env)
    for words in named:
        assert words in str(refused.value)


def test_a_bad_private_key_names_the_setting(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    missing = tmp_path / "absent.pem"
    settings = settings_from(
        monkeypatch, GITHUB_APP_ID="123", GITHUB_APP_PRIVATE_KEY_PATH=str(missing)
    )
    with pytest.raises(GitHubAppConfigError, match=r"TICKETSMITH_GITHUB_APP_PRIVATE_KEY_PATH="):
        github_token_source(settings)

    garbled = tmp_path / "garbled.pem"
    garbled.write_text(
        "-----BEGIN RSA PRIVATE KEY-----\nnot a key\n-----END RSA PRIVATE KEY-----\n"
    )
    monkeypatch.setenv("TICKETSMITH_GITHUB_APP_PRIVATE_KEY_PATH", str(garbled))
    with pytest.raises(GitHubAppConfigError) as bad:
        github_token_source(Settings(_env_file=None))  # type: ignore[call-arg]
    assert f"TICKETSMITH_GITHUB_APP_PRIVATE_KEY_PATH ({garbled}) is not a PEM private key" in str(
        bad.value
    )

    monkeypatch.delenv("TICKETSMITH_GITHUB_APP_PRIVATE_KEY_PATH")
    ec_key = private_pem(ec.generate_private_key(ec.SECP256R1()))  # type: ignore[arg-type]
    monkeypatch.setenv("TICKETSMITH_GITHUB_APP_PRIVATE_KEY", ec_key)
    with pytest.raises(
        GitHubAppConfigError, match="TICKETSMITH_GITHUB_APP_PRIVATE_KEY is not an RSA"
    ):
        github_token_source(Settings(_env_file=None))  # type: ignore[call-arg]


@pytest.mark.parametrize(
    ("argv", "refusal"),
    [
        (["worker.py"], "worker not started"),
        (["-c", "from webhooks.app import serve; serve()"], "webhook app not started"),
    ],
)
def test_the_services_refuse_to_start_with_an_unreadable_key(
    tmp_path: Path, argv: list[str], refusal: str
) -> None:
    missing = tmp_path / "absent.pem"
    env = {k: v for k, v in os.environ.items() if not k.startswith("TICKETSMITH_GITHUB")}
    env |= {
        "TICKETSMITH_GITHUB_APP_ID": "123",
        "TICKETSMITH_GITHUB_APP_PRIVATE_KEY_PATH": str(missing),
        "TICKETSMITH_WEBHOOK_SECRET": "s",
        "TICKETSMITH_SANDBOX": "none",
        "TICKETSMITH_METRICS_PORT": "0",
        "TICKETSMITH_TEMPORAL_ADDRESS": "127.0.0.1:1",  # never reached
    }
    done = subprocess.run(
        [sys.executable, *argv], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 1
    assert f"{refusal}: TICKETSMITH_GITHUB_APP_PRIVATE_KEY_PATH={missing}" in done.stderr
