"""GitHub's error bodies and the emulated bot's login, shared by every GitHub route."""

from typing import Any

from emulators.state import EmulatorError

DOCS = "https://docs.github.com/rest"
BOT_LOGIN = "ticketsmith-bot"


def github_error(status_code: int, message: str, errors: list[Any] | None = None) -> EmulatorError:
    """An error with GitHub's body shape."""
    body: dict[str, Any] = {"message": message, "documentation_url": DOCS}
    if errors:
        body["errors"] = errors
    return EmulatorError(status_code, body | {"status": str(status_code)})
