"""The embedded stack's webhook secret: made once, kept in its data directory (mode 0600) and
given to the emulators, which sign their deliveries with it, and to the webhook app."""

import os
import secrets
import stat
import tempfile
from pathlib import Path

from pydantic import SecretStr

from config import Settings
from embedded.services import StackError

FILE_NAME = "webhook-secret"


def secret_file(data_dir: Path) -> Path:
    """Where the stack keeps its webhook secret."""
    return data_dir / FILE_NAME


def stack_secret(data_dir: Path) -> str:
    """The secret in the data directory, made (readable by its owner only) when there is none."""
    path = secret_file(data_dir)
    if not path.exists():
        data_dir.mkdir(parents=True, exist_ok=True)
        fd, draft = tempfile.mkstemp(dir=data_dir, prefix=f".{FILE_NAME}-")  # mode 0600
        try:
            with os.fdopen(fd, "w") as out:
                out.write(secrets.token_hex(32) + "\n")
            os.link(draft, path)  # never replaces one another stack made meanwhile
        except FileExistsError:
            pass
        finally:
            os.unlink(draft)
    if stat.S_IMODE(path.stat().st_mode) & 0o077:
        path.chmod(0o600)
    secret = path.read_text().strip()
    if not secret:
        raise StackError(f"{path} is empty: delete it and the stack makes a new secret")
    return secret


def given(settings: Settings) -> bool:
    """Whether the settings name a webhook secret of their own."""
    return bool(settings.webhook_secret and settings.webhook_secret.get_secret_value().strip())


def with_webhook_secret(settings: Settings) -> Settings:
    """The settings with the stack's secret, unless one is set or unsigned deliveries are wanted."""
    if given(settings) or settings.webhook_allow_unsigned:
        return settings
    secret = SecretStr(stack_secret(settings.data_dir))
    return settings.model_copy(update={"webhook_secret": secret})


def secret_source(settings: Settings) -> str:
    """Where the secret the stack's deliveries are signed with comes from (before the stack
    made one), in a few words."""
    if settings.webhook_allow_unsigned and not given(settings):
        return "none: unsigned deliveries are taken (TICKETSMITH_WEBHOOK_ALLOW_UNSIGNED=true)"
    if given(settings):
        return "TICKETSMITH_WEBHOOK_SECRET (set by you)"
    return f"{secret_file(settings.data_dir)} (made by the stack, reused at every start)"
