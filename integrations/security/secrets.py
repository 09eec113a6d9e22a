"""Credentials in text: the worker's own secret values and the known shapes, found and redacted.

The shapes are detect-secrets' regex detectors (AWS, GitHub, GitLab, Slack, OpenAI, Stripe,
private keys, URLs with a password and the rest), a few it lacks (GitHub fine-grained tokens,
Google API keys, current OpenAI keys, whole JSON web tokens and private key blocks), and
random-looking values assigned to names like `token`, `secret` or `password`. The detectors are
built once per process and run over a whole text at a time."""

import math
import re
import string
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from functools import cache

from detect_secrets.filters import heuristic
from detect_secrets.filters.allowlist import is_line_allowlisted
from detect_secrets.plugins.artifactory import ArtifactoryDetector
from detect_secrets.plugins.aws import AWSKeyDetector
from detect_secrets.plugins.azure_storage_key import AzureStorageKeyDetector
from detect_secrets.plugins.base import RegexBasedDetector
from detect_secrets.plugins.basic_auth import BasicAuthDetector
from detect_secrets.plugins.discord import DiscordBotTokenDetector
from detect_secrets.plugins.github_token import GitHubTokenDetector
from detect_secrets.plugins.gitlab_token import GitLabTokenDetector
from detect_secrets.plugins.keyword import (
    CONFIG_DENYLIST_REGEX_TO_GROUP,
    REGEX_BY_FILETYPE,
    KeywordDetector,
)
from detect_secrets.plugins.mailchimp import MailchimpDetector
from detect_secrets.plugins.npm import NpmDetector
from detect_secrets.plugins.openai import OpenAIDetector
from detect_secrets.plugins.private_key import PrivateKeyDetector
from detect_secrets.plugins.pypi_token import PypiTokenDetector
from detect_secrets.plugins.sendgrid import SendGridDetector
from detect_secrets.plugins.slack import SlackDetector
from detect_secrets.plugins.square_oauth import SquareOAuthDetector
from detect_secrets.plugins.stripe import StripeDetector
from detect_secrets.plugins.telegram_token import TelegramBotTokenDetector
from detect_secrets.plugins.twilio import TwilioKeyDetector
from detect_secrets.util.code_snippet import get_code_snippet
from detect_secrets.util.filetype import determine_file_type

# detect-secrets' regex detectors and the words a report uses for them.
SHAPES: dict[type[RegexBasedDetector], str] = {
    AWSKeyDetector: "AWS access key",
    ArtifactoryDetector: "Artifactory token",
    AzureStorageKeyDetector: "Azure storage key",
    BasicAuthDetector: "password in a URL",
    DiscordBotTokenDetector: "Discord bot token",
    GitHubTokenDetector: "GitHub token",
    GitLabTokenDetector: "GitLab token",
    MailchimpDetector: "Mailchimp key",
    NpmDetector: "npm token",
    OpenAIDetector: "OpenAI key",
    PrivateKeyDetector: "private key",
    PypiTokenDetector: "PyPI token",
    SendGridDetector: "SendGrid key",
    SlackDetector: "Slack token",
    SquareOAuthDetector: "Square OAuth secret",
    StripeDetector: "Stripe key",
    TelegramBotTokenDetector: "Telegram bot token",
    TwilioKeyDetector: "Twilio key",
}
# Detectors whose first group is the credential (the rest of the match is its context).
VALUE_IN_GROUP = (AWSKeyDetector, BasicAuthDetector, NpmDetector)
# Shapes detect-secrets 1.5 does not know.
EXTRA_SHAPES = {
    "GitHub token": re.compile(r"\bgithub_pat_[A-Za-z0-9_]{22,255}"),
    # detect-secrets' JWT pattern stops before the signature; this takes the whole token.
    "JSON web token": re.compile(r"\beyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*"),
    "Google API key": re.compile(r"\bAIza[0-9A-Za-z_\-]{35}"),
    "OpenAI key": re.compile(r"\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{40,}"),
}
PRIVATE_KEY_BLOCK = re.compile(
    r"-----BEGIN ((?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?)-----.*?(?:-----END \1-----|\Z)", re.S
)
# Where the keyword rule looks: a secret-sounding name and an assignment (cheap to find, so
# most lines skip the rule); each hit's line is read once however many it holds.
ASSIGNMENT_HINT = re.compile(
    r"(?:pass|pwd|secret|token|key|auth|cred|private|contrase)[^\n=:>]{0,40}?(?:=|:|=>)", re.I
)
# A value assigned to a secret-sounding name (detect-secrets' keyword list has no `token`).
ASSIGNED = re.compile(
    r"[\w.-]*(?:token|secret|passw(?:or)?d|pwd|api_?key|auth_?key|access_?key|private_?key|"
    r"credential)s?[\w-]*['\"\]]?\s*(?:=|:=|:|=>)\s*[@$]?(['\"`]?)([A-Za-z0-9+/_=-]{16,})\1",
    re.I,
)
KEYWORD = "high-entropy secret"
MIN_KEYWORD_VALUE = 16
MIN_OWN_VALUE = 8  # shorter settings ("changeme") would redact ordinary words
BASE64 = string.ascii_letters + string.digits + "+/-_="
ALNUM_RUN = re.compile(r"[A-Za-z0-9]+")


@dataclass(frozen=True)
class Hit:
    """One credential in a text: its kind and where it is (the value stays in the text)."""

    kind: str
    start: int
    end: int
    own: bool = False  # one of the worker's own secret values


def entropy(value: str) -> float:
    """Shannon entropy per character, in bits."""
    counts = [value.count(c) for c in set(value)]
    return -sum(n / len(value) * math.log2(n / len(value)) for n in counts)


def looks_random(value: str) -> bool:
    """Whether an assigned value reads as a generated credential, not words, a path or a
    placeholder: a long run of letters mixed with digits, of high entropy."""
    if any(c not in BASE64 for c in value) or len(max(ALNUM_RUN.findall(value), default="")) < (
        MIN_KEYWORD_VALUE
    ):
        return False
    if heuristic.is_sequential_string(value) or heuristic.is_potential_uuid(value):
        return False
    mixed = any(c.isdigit() for c in value) and any(c.isalpha() for c in value)
    return mixed and entropy(value) >= 3.5


@cache
def _detectors() -> tuple[tuple[str, RegexBasedDetector], ...]:
    """detect-secrets' regex detectors, each built once."""
    return tuple((kind, plugin()) for plugin, kind in SHAPES.items())


class SecretFinder:
    """Finds credentials in text: the given own values (label -> value) and the known shapes."""

    def __init__(self, own: Mapping[str, str] | None = None) -> None:
        values = {v: label for label, v in (own or {}).items() if v and len(v) >= MIN_OWN_VALUE}
        self._own = sorted(values.items(), key=lambda pair: len(pair[0]), reverse=True)
        self._detectors = _detectors()
        self._keyword = KeywordDetector()

    def hits(self, text: str, filename: str = "") -> list[Hit]:
        """The credentials in a text (a line, or many); keyword assignments read as
        `filename`'s language."""
        found = [
            Hit(label, start, start + len(value), own=True)
            for value, label in self._own
            for start in _positions(text, value)
        ]
        for kind, detector in self._detectors:
            found += _matched(text, kind, detector)
        for kind, pattern in EXTRA_SHAPES.items():
            found += [Hit(kind, m.start(), m.end()) for m in pattern.finditer(text)]
        read = -1
        for hint in ASSIGNMENT_HINT.finditer(text):
            start = text.rfind("\n", 0, hint.start()) + 1
            if start == read:
                continue
            read, end = start, text.find("\n", hint.end())
            line = text[start : end if end >= 0 else len(text)]
            if not heuristic.is_indirect_reference(line):
                values = self._keyword_values(line, filename)
                found += [replace(h, start=h.start + start, end=h.end + start)
                          for h in _located(line, KEYWORD, values)]  # fmt: skip
        return _outermost(found)

    def _keyword_values(self, line: str, filename: str) -> Iterator[str]:
        """Random-looking values assigned to secret-sounding names."""
        groups = CONFIG_DENYLIST_REGEX_TO_GROUP
        if filename:
            groups = REGEX_BY_FILETYPE.get(determine_file_type(filename), groups)
        assigned = (m.group(2) for m in ASSIGNED.finditer(line))
        for value in {*self._keyword.analyze_string(line, groups), *assigned}:
            if heuristic.is_templated_secret(value) or heuristic.is_prefixed_with_dollar_sign(
                value
            ):
                continue
            if not heuristic.is_likely_id_string(value, line) and looks_random(value):
                yield value

    def redact(self, text: str) -> str:
        """The text with every credential replaced by `[redacted: <kind>]`."""
        text = PRIVATE_KEY_BLOCK.sub(lambda _: marker("private key"), text)
        parts, end = [], len(text)
        for hit in reversed(self.hits(text)):
            parts += [text[hit.end : end], marker(hit.kind)]
            end = hit.start
        return text[:end] + "".join(reversed(parts))


def marker(kind: str) -> str:
    """What stands where a credential was."""
    return f"[redacted: {kind}]"


def allowed_inline(line: str, filename: str) -> bool:
    """Whether the line carries detect-secrets' `pragma: allowlist secret` comment."""
    return is_line_allowlisted(filename, line, get_code_snippet([line], 1))


@cache
def shapes_only() -> SecretFinder:
    """A finder of the known shapes alone, for clients built without the worker's values."""
    return SecretFinder()


def _positions(text: str, value: str) -> Iterator[int]:
    start = text.find(value)
    while start >= 0:
        yield start
        start = text.find(value, start + len(value))


def _matched(line: str, kind: str, detector: RegexBasedDetector) -> list[Hit]:
    """Where a detector's patterns match (the credential alone where a group holds it)."""
    hits = []
    for pattern in detector.denylist:
        group = 1 if pattern.groups and isinstance(detector, VALUE_IN_GROUP) else 0
        hits += [Hit(kind, m.start(group), m.end(group)) for m in pattern.finditer(line)]
    return [hit for hit in hits if hit.end > hit.start]


def _located(line: str, kind: str, values: Iterator[str]) -> list[Hit]:
    """Hits for values a detector returned (it gives values, not positions)."""
    return [
        Hit(kind, start, start + len(value))
        for value in set(values)
        if value
        for start in _positions(line, value)
    ]


def _outermost(hits: list[Hit]) -> list[Hit]:
    """Hits that no other hit contains; at one span, the worker's own value wins."""
    ordered = sorted(hits, key=lambda h: (h.start, -h.end, not h.own))
    kept: list[Hit] = []
    for hit in ordered:
        if kept and hit.start < kept[-1].end:
            if hit.end > kept[-1].end:  # overlapping, not contained: widen the one kept
                kept[-1] = Hit(kept[-1].kind, kept[-1].start, hit.end, kept[-1].own)
            continue
        kept.append(hit)
    return kept
