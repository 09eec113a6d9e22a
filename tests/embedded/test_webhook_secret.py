"""The stack's webhook secret: made once in its data directory (0600), reused at every start,
given to the emulators and the webhook app; a secret of your own, or the explicit unsigned
setting, means none is made."""

import stat
from pathlib import Path

import pytest
from pydantic import SecretStr

from embedded.services import StackError, child_env
from embedded.stack import Stack
from embedded.webhook_secret import secret_file, secret_source, stack_secret, with_webhook_secret
from harness.stacks import stack_settings


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_made_once_readable_by_its_owner_only_and_reused(tmp_path: Path) -> None:
    data = tmp_path / "data"
    first = stack_secret(data)
    path = secret_file(data)
    assert path == data / "webhook-secret"
    assert len(first) == 64 and int(first, 16) >= 0
    assert mode(path) == 0o600
    assert stack_secret(data) == first
    assert [p.name for p in data.iterdir()] == ["webhook-secret"]  # no draft left behind
    path.chmod(0o644)
    assert stack_secret(data) == first and mode(path) == 0o600


def test_an_emptied_file_is_named(tmp_path: Path) -> None:
    secret_file(tmp_path).write_text("\n")
    with pytest.raises(StackError, match="webhook-secret is empty: delete it"):
        stack_secret(tmp_path)


def test_the_stack_settings_carry_it_to_every_process(tmp_path: Path) -> None:
    settings = with_webhook_secret(stack_settings(tmp_path))
    assert settings.webhook_secret is not None
    env = child_env(settings)
    assert env["TICKETSMITH_WEBHOOK_SECRET"] == secret_file(tmp_path).read_text().strip()
    assert env["TICKETSMITH_WEBHOOK_ALLOW_UNSIGNED"] == "False"
    described = Stack(stack_settings(tmp_path)).describe()
    assert f"Webhook secret  {tmp_path / 'webhook-secret'} (made by the stack" in described


def test_a_secret_of_your_own_or_the_unsigned_setting_makes_none(tmp_path: Path) -> None:
    own = stack_settings(tmp_path, webhook_secret=SecretStr("mine"))
    assert with_webhook_secret(own) is own
    assert secret_source(own) == "TICKETSMITH_WEBHOOK_SECRET (set by you)"
    loose = stack_settings(tmp_path, webhook_allow_unsigned=True)
    assert with_webhook_secret(loose) is loose
    assert secret_source(loose).startswith("none: unsigned deliveries are taken")
    assert child_env(loose)["TICKETSMITH_WEBHOOK_ALLOW_UNSIGNED"] == "True"
    assert not secret_file(tmp_path).exists()
