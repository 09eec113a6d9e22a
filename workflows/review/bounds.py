"""What a review comment may not ask for: it is answered "not done" and never acted on."""

import re

_RULES = (
    (
        re.compile(r"\b(test|setup|ci|build)[ _-]?command\b|\btest_command\b", re.I),
        "the test and setup commands come from the project's configuration, which comments "
        "on a pull request cannot change",
    ),
    (
        re.compile(
            r"\b(reveal|print|show|post|dump|echo|leak|send|share|tell)\b.{0,60}"
            r"\b(secrets?|tokens?|api[ _-]?keys?|passwords?|credentials?|settings|"
            r"environment variables?|env vars?|configuration)\b",
            re.I,
        ),
        "ticketsmith does not reveal its settings, secrets or tokens",
    ),
    (
        re.compile(
            r"\bforce[ -]?push|--force\b|\bpush\b.{0,40}\b(to|into|onto)\b.{0,40}"
            r"\b(main|master|another|other|different|separate|base|fork|new branch)\b",
            re.I,
        ),
        "ticketsmith pushes only its own commits to this pull request's branch, never forced",
    ),
)


def out_of_bounds(body: str) -> str | None:
    """Why a comment asks for something ticketsmith never does, or None when it may act on it."""
    for pattern, reason in _RULES:
        if pattern.search(body):
            return reason
    return None
