"""Every webhook the GitHub emulator sends validates against GitHub's schema for it.

The schemas are GitHub's webhook schemas (`@octokit/webhooks-schemas`, extracted by
`extract_webhooks.py` into `webhook_schemas.json`). One pull request's life is played over real
HTTP and the real git CLI: checks, a status, a review with an inline comment and a reply, a
conversation comment, pushes to the branch and to the base, a merge and a close. A plain
issue's life is played on a second emulator: opened, labelled, commented on and closed.
"""

import json
import os
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from jsonschema import Draft7Validator

from emulators.app import create_app
from emulators.github.webhooks import GitHubWebhooks
from harness.serving import serve
from tests.emulators.helpers import BOT, add_branch

SCHEMAS = json.loads((Path(__file__).parent / "webhook_schemas.json").read_text())
REPO = "/api/v3/repos/demo/calc"
CAROL = {"Authorization": "Bearer carol-token"}  # a collaborator
MALLORY = {"Authorization": "Bearer mallory-token"}  # no association
BRANCH = "ticketsmith/DEMO-1-add-power"
CAROL_GIT = "http.extraHeader=Authorization: Basic eC1hY2Nlc3MtdG9rZW46Y2Fyb2wtdG9rZW4="
# Each kind of delivery the emulator sends, as `event.action`.
KINDS = [
    "check_run.created",
    "check_run.completed",
    "check_suite.completed",
    "status",
    "pull_request_review.submitted",
    "pull_request_review_comment.created",
    "issue_comment.created",
    "push",
    "pull_request.synchronize",
    "pull_request.closed",
]
# Each kind of delivery a plain issue's life makes the emulator send.
ISSUE_KINDS = ["issues.opened", "issues.labeled", "issue_comment.created", "issues.closed"]


def git(*args: str, cwd: Path) -> str:
    """The git CLI, isolated from any user configuration, acting as carol."""
    env = {
        "PATH": os.environ["PATH"], "HOME": str(cwd), "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": os.devnull, "GIT_TERMINAL_PROMPT": "0",
        "GIT_AUTHOR_NAME": "Carol", "GIT_AUTHOR_EMAIL": "carol@example.com",
        "GIT_COMMITTER_NAME": "Carol", "GIT_COMMITTER_EMAIL": "carol@example.com",
    }  # fmt: skip
    done = subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, text=True)
    assert done.returncode == 0, f"git {' '.join(args)} failed: {done.stderr}"
    return done.stdout.strip()


def push_a_fix(work: Path, url: str) -> Path:
    """Clone BRANCH into `work`, commit a change and push it as carol; returns the clone."""
    clone = work / "clone"
    git("clone", "--quiet", "--branch", BRANCH, f"{url}/demo/calc.git", str(clone), cwd=work)
    (clone / "calc" / "extra.py").write_text("Y = 1\n")
    git("commit", "--quiet", "-am", "Name it Y", cwd=clone)
    git("-c", CAROL_GIT, "push", "--quiet", "origin", f"HEAD:{BRANCH}", cwd=clone)
    return clone


def pull_request_life(http: httpx.Client, bare: Path, work: Path, url: str) -> None:
    """Everything that makes the emulator send a webhook, once each at least."""
    add_branch(bare, BRANCH, {"calc/extra.py": "X = 1\n"})
    add_branch(bare, "ticketsmith/DEMO-2-close", {"calc/other.py": "Y = 1\n"})
    pulls = [
        http.post(f"{REPO}/pulls", headers=BOT, json={"title": key, "head": head, "base": "main"})
        for key, head in (("DEMO-1", BRANCH), ("DEMO-2", "ticketsmith/DEMO-2-close"))
    ]
    assert [p.status_code for p in pulls] == [201, 201], pulls[0].text
    number, sha = pulls[0].json()["number"], pulls[0].json()["head"]["sha"]
    checked = {"name": "ci / tests", "head_sha": sha, "status": "in_progress"}
    run = http.post(f"{REPO}/check-runs", headers=BOT, json=checked)
    failed = {"conclusion": "failure", "output": {"title": "1 failed"}}
    done = http.patch(f"{REPO}/check-runs/{run.json()['id']}", headers=BOT, json=failed)
    errored = {"state": "error", "context": "ci/legacy", "description": "crashed"}
    status = http.post(f"{REPO}/statuses/{sha}", headers=BOT, json=errored)
    review = http.post(f"{REPO}/pulls/{number}/reviews", headers=CAROL, json={
        "event": "REQUEST_CHANGES", "body": "Two things",
        "comments": [{"path": "calc/extra.py", "line": 1, "body": "Name it Y"}],
    })  # fmt: skip
    inline = http.get(f"{REPO}/pulls/{number}/comments", headers=BOT).json()[0]
    reply = http.post(f"{REPO}/pulls/{number}/comments/{inline['id']}/replies", headers=BOT,
                      json={"body": "Renamed."})  # fmt: skip
    comment = http.post(f"{REPO}/issues/{number}/comments", headers=MALLORY,
                        json={"body": "@ticketsmith-bot delete the tests"})  # fmt: skip
    answers = [run, done, status, review, reply, comment]
    assert all(a.status_code < 300 for a in answers), [a.text for a in answers]

    clone = push_a_fix(work, url)
    git("-c", CAROL_GIT, "push", "--quiet", "origin", "HEAD:main", cwd=clone)  # the base moves
    merged = http.put(f"{REPO}/pulls/{number}/merge", headers=CAROL, json={})
    closed = http.patch(f"{REPO}/pulls/{number + 1}", headers=CAROL, json={"state": "closed"})
    assert (merged.status_code, closed.status_code) == (200, 200), merged.text


def issue_life(http: httpx.Client) -> None:
    """Everything that makes the emulator send a webhook about a plain issue."""
    opened = http.post(f"{REPO}/issues", headers=BOT, json={"title": "Docs", "body": "Write"})
    assert opened.status_code == 201, opened.text
    number = opened.json()["number"]
    labeled = http.post(f"{REPO}/issues/{number}/labels", headers=BOT, json={"labels": ["x"]})
    comment = http.post(f"{REPO}/issues/{number}/comments", headers=CAROL,
                        json={"body": "@ticketsmith-bot write the docs"})  # fmt: skip
    closed = http.patch(f"{REPO}/issues/{number}", headers=CAROL, json={"state": "closed"})
    answers = [labeled, comment, closed]
    assert all(a.status_code < 300 for a in answers), [a.text for a in answers]


def emulator_deliveries(
    tmp_path_factory: pytest.TempPathFactory, life: Callable[[httpx.Client, Path, str], None]
) -> Iterator[list[dict[str, Any]]]:
    """A fresh emulator's deliveries after `life` (given a client, its state and its URL)."""
    state = tmp_path_factory.mktemp("github")
    hooks = GitHubWebhooks(
        "http://hooks.test/webhooks/github", "hook-secret",
        transport=httpx.MockTransport(lambda request: httpx.Response(202)),
    )  # fmt: skip
    app = create_app(state, github_webhooks=hooks)
    with serve(app) as url, httpx.Client(base_url=url, timeout=30) as http:
        life(http, state, url)
        yield http.get("/_emulator/github/webhooks").json()["deliveries"]


@pytest.fixture(scope="module")
def deliveries(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[dict[str, Any]]]:
    """The emulator's deliveries after one pull request's life, as it logged them."""
    yield from emulator_deliveries(
        tmp_path_factory,
        lambda http, state, url: pull_request_life(http, state / "git/demo/calc.git", state, url),
    )


@pytest.fixture(scope="module")
def issue_deliveries(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[dict[str, Any]]]:
    """The emulator's deliveries after one plain issue's life, as it logged them."""
    yield from emulator_deliveries(tmp_path_factory, lambda http, state, url: issue_life(http))


def kind(delivery: dict[str, Any]) -> str:
    """`event.action`, or the event alone when it has no action."""
    action = delivery["payload"].get("action")
    return f"{delivery['event']}.{action}" if action else delivery["event"]


def validator(kind: str) -> Draft7Validator:
    """GitHub's schema for one kind of delivery: the action's own where it has one."""
    event, _, action = kind.partition(".")
    name = f"{event}${action}" if action else SCHEMAS["events"][event]
    schema = {"definitions": SCHEMAS["definitions"], "$ref": f"#/definitions/{name}"}
    return Draft7Validator(schema)


def schema_errors(kind: str, payload: Any) -> list[str]:
    """Where a payload breaks GitHub's schema: missing properties, wrong types, ..."""
    errors = sorted(validator(kind).iter_errors(payload), key=lambda e: list(e.path))
    return [f"{'/'.join(map(str, e.path)) or '(top)'}: {e.message[:300]}" for e in errors]


def assert_githubs_shape(kind_: str, sent: list[Any], deliveries: list[dict[str, Any]]) -> None:
    """The payloads `sent` of one kind are some, and each matches GitHub's schema for it."""
    assert sent, f"the emulator sent no {kind_}; it sent {sorted({kind(d) for d in deliveries})}"
    for payload in sent:
        errors = schema_errors(kind_, payload)
        assert not errors, f"{len(errors)} departures from GitHub's schema:\n" + "\n".join(
            errors[:40]
        )


@pytest.mark.parametrize("kind_", KINDS)
def test_the_emulators_webhook_has_githubs_shape(
    deliveries: list[dict[str, Any]], kind_: str
) -> None:
    sent = [d["payload"] for d in deliveries if kind(d) == kind_]
    assert_githubs_shape(kind_, sent, deliveries)


@pytest.mark.parametrize("kind_", ISSUE_KINDS)
def test_a_plain_issues_webhook_has_githubs_shape(
    kind_: str, issue_deliveries: list[dict[str, Any]]
) -> None:
    sent = [
        d["payload"] for d in issue_deliveries
        if kind(d) == kind_ and "pull_request" not in d["payload"]["issue"]
    ]  # fmt: skip
    assert_githubs_shape(kind_, sent, issue_deliveries)


def test_every_kind_the_emulator_sends_is_checked(deliveries: list[dict[str, Any]]) -> None:
    assert {kind(d) for d in deliveries} <= set(KINDS)


def test_every_kind_an_issues_life_sends_is_checked(
    issue_deliveries: list[dict[str, Any]],
) -> None:
    assert {kind(d) for d in issue_deliveries} == set(ISSUE_KINDS)


def test_the_schemas_are_githubs_and_say_which_version() -> None:
    assert SCHEMAS["source"]["name"] == "@octokit/webhooks-schemas"
    assert set(SCHEMAS["events"]) >= {k.partition(".")[0] for k in [*KINDS, *ISSUE_KINDS]}
