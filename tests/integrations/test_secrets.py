"""Finding credentials in a line and redacting them in a text: each kind, never the value."""

import time

import pytest

from integrations.security.secrets import SecretFinder, marker

# Credential-shaped test values, put together so that no scanner flags this file itself.
GITHUB = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
FINE_GRAINED = "github_pat_" + "11ABCDEFG0" * 8 + "xy"
GITLAB = "glpat-" + "Zx9Yw8Vu7Ts6Rq5Po4Nm"
SLACK = "xoxb-" + "123456789012-abcdefghijkl"
AWS = "AKIA" + "IOSFODNN7QWERTYU"
GOOGLE = "AIza" + "SyA-1234567890abcdefghijklmnopqrstu"
OPENAI = "sk-proj-" + "Abc123Def456Ghi789Jkl012Mno345Pqr678Stu9"
RANDOM = "Xy7pQ2mN9vR4tL8k" + "W3zJ6hB1"
JWT = (
    "eyJhbGciOiJIUzI1NiJ9."
    + "eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
)
OWN = "worker-own-token-" + "0f3a9c"

CASES = [
    (f'TOKEN = "{GITHUB}"', GITHUB, "GitHub token"),
    (f"token: {FINE_GRAINED}", FINE_GRAINED, "GitHub token"),
    (f'client = Gitlab(private="{GITLAB}")', GITLAB, "GitLab token"),
    (f"slack = '{SLACK}'", SLACK, "Slack token"),
    (f"aws_access_key_id = {AWS}", AWS, "AWS access key"),
    (f'maps = Maps(key="{GOOGLE}")', GOOGLE, "Google API key"),
    (f"OPENAI_API_KEY={OPENAI}", OPENAI, "OpenAI key"),
    ("db = 'postgres://app:" + "Sup3rS3cret" + "@db:5432/app'", "Sup3rS3cret", "password in a URL"),
    (f'api_token = "{RANDOM}"', RANDOM, "high-entropy secret"),
    (f"export DEPLOY_SECRET={RANDOM}", RANDOM, "high-entropy secret"),
    (f'headers = {{"Authorization": "Bearer {JWT}"}}', JWT, "JSON web token"),
    (f"the worker said {OWN} once", OWN, "the worker's GitHub token"),
]


@pytest.fixture(scope="module")
def finder() -> SecretFinder:
    return SecretFinder({"the worker's GitHub token": OWN, "too short to redact": "abc"})


@pytest.mark.parametrize(("line", "value", "kind"), CASES)
def test_each_kind_is_found_where_it_is(
    finder: SecretFinder, line: str, value: str, kind: str
) -> None:
    hits = finder.hits(line, "settings.py")
    assert [(h.kind, line[h.start : h.end]) for h in hits] == [(kind, value)]


@pytest.mark.parametrize(("line", "value", "kind"), CASES)
def test_redaction_leaves_a_marker_and_not_the_value(
    finder: SecretFinder, line: str, value: str, kind: str
) -> None:
    redacted = finder.redact(line)
    assert value not in redacted
    assert marker(kind) in redacted


@pytest.mark.parametrize(
    "line",
    [
        'password = "hunter2"',  # a short test password is no credential
        'SECRET_KEY = "test-secret-key-for-tests"',
        'token = os.environ["GITHUB_TOKEN"]',
        "token_count = count_tokens(text_of_the_message)",
        'api_key = "${API_KEY}"',
        'session_id = "7f3e2a1b9c8d4e5f6a7b8c9d"',
        'SECRET_BACKEND = "VaultSecretBackend"',  # words, no digits
        'tokenizer: "bert-base-uncased-v2"',  # words with a digit
        "secret_path: projects/123456/secrets/db-pass/versions/latest",
        'PASSWORD_HASHER = "django.contrib.auth.hashers.PBKDF2PasswordHasher"',
        "max_tokens: 4096",
        "abc",
    ],
)
def test_ordinary_code_is_left_alone(finder: SecretFinder, line: str) -> None:
    assert finder.hits(line, "app.py") == []
    assert finder.redact(line) == line


def test_a_private_key_block_is_redacted_whole(finder: SecretFinder) -> None:
    body = "MIIEowIBAAKCAQEA" + "x" * 60
    text = (
        "Output:\n-----BEGIN RSA PRIVATE KEY-----\n"
        f"{body}\n{body}\n-----END RSA PRIVATE KEY-----\nDone."
    )
    redacted = finder.redact(text)
    assert redacted == "Output:\n[redacted: private key]\nDone."
    assert finder.hits("-----BEGIN OPENSSH PRIVATE KEY-----")[0].kind == "private key"


def test_every_credential_in_a_long_text_is_redacted_and_the_rest_kept(
    finder: SecretFinder,
) -> None:
    lines = [f"line {n}: nothing to see" for n in range(500)]
    lines[100] = f"E   AssertionError: env GITHUB_TOKEN={GITHUB}"
    lines[400] = f"also {OWN} and {AWS}"
    redacted = finder.redact("\n".join(lines) + "\n")
    assert GITHUB not in redacted and OWN not in redacted and AWS not in redacted
    out = redacted.splitlines()
    assert out[100] == "E   AssertionError: env GITHUB_TOKEN=[redacted: GitHub token]"
    assert out[400] == ("also [redacted: the worker's GitHub token] and [redacted: AWS access key]")
    assert out[:100] == lines[:100] and len(out) == 500


def test_redacting_a_pull_request_body_takes_milliseconds(finder: SecretFinder) -> None:
    text = "\n".join(f"    assert add({n}, 2) == {n + 2}  # token budget check" for n in range(800))
    start = time.perf_counter()
    assert finder.redact(text) == text
    assert time.perf_counter() - start < 0.5  # a busy 2-core machine: about 15 ms
