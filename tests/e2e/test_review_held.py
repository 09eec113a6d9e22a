"""A review round held to its comment, end to end: dev server, real worker (scripted model
server), emulators with emulated CI and GitHub webhooks, the webhook app and real git.

DEMO-1 runs to its pull request on its own; CI fails on the first implementation and one fix
round turns it green. A reviewer asks inline for a docstring in power(); the round's worker
rewrites divide()'s docstring instead and adds a line beside the code, and the judgement finds
the comment not addressed. divide() goes back to the branch's version, nothing is pushed (the
branch stays where it was), and the reply in the thread says so, why, and what was put back.
"""

import json
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from embedded.demo import starter
from embedded.stack import Stack
from harness.model_server import FakeModelServer
from temporal.client import connect_temporal
from tests.e2e.review_helpers import (
    KEY,
    REPO,
    as_person,
    comments_with,
    following_stack,
    git,
    waiting_after,
)
from tests.e2e.stacks import poll
from tests.support.notices import check_row
from tests.support.pr_team import OPS, PullRequestBrain, pull_request_brain

pytestmark = pytest.mark.e2e
SECRET = "review-held-e2e-secret"
ASK = "Please give power() a docstring that says negative exponents give floats."
DIVIDE_DOC = '"""Return a divided by b; dividing by zero raises ValueError."""'


class WanderingBrain(PullRequestBrain):
    """Answers a review of calc/operations.py by changing divide() and adding a line; its
    judgement finds the comment not addressed."""

    def _implement_file(self, body: dict[str, Any], inputs: dict[str, Any]) -> Any:
        human = next(m["content"] for m in reversed(body["messages"]) if m.get("role") == "user")
        if "review comments" in human and inputs["path"] == OPS:
            return self._rewrite(
                body,
                OPS,
                lambda text: text.replace(DIVIDE_DOC, '"""Return a / b."""') + "\n# powers\n",
            )
        return super()._implement_file(body, inputs)

    def _judge_comments(self, body: dict[str, Any], inputs: dict[str, Any]) -> str:
        verdicts = [
            {"id": c["id"], "addressed": False, "reply": "power() still has no docstring"}
            for c in inputs["comments"]
        ]
        return json.dumps({"verdicts": verdicts})


@pytest.fixture(scope="module")
async def model() -> AsyncIterator[FakeModelServer]:
    brain = WanderingBrain(additions=pull_request_brain().additions)
    with FakeModelServer(brain) as server:
        yield server


@pytest.fixture(scope="module")
async def stack(
    tmp_path_factory: pytest.TempPathFactory, model: FakeModelServer
) -> AsyncIterator[Stack]:
    data = tmp_path_factory.mktemp("review-held")
    async with following_stack(data, model, SECRET) as stack:
        yield stack


async def test_a_round_that_addressed_nothing_pushes_nothing_and_says_why(
    stack: Stack, model: FakeModelServer
) -> None:
    settings = stack.settings
    client = await connect_temporal(settings)
    assert "started" in starter(settings, KEY, "--auto").lower()
    fixed = await poll(lambda: waiting_after(client, "ci", 1), "the CI fix round", 300)
    view = fixed.pull_request
    assert view is not None and view.number is not None and view.head_sha
    url = f"{settings.git_base_url}/demo/calc.git"
    before = git("ls-remote", url, f"refs/heads/{fixed.branch}").split()[0]
    assert before == view.head_sha

    async with httpx.AsyncClient(base_url=settings.jira_base_url, timeout=30) as http:
        review = {
            "event": "REQUEST_CHANGES",
            "body": "Nearly there.",
            "comments": [{"path": OPS, "line": 1, "body": ASK}],
        }
        posted = await http.post(
            f"{REPO}/pulls/{view.number}/reviews", json=review, headers=as_person("carol")
        )
        assert posted.status_code == 200, posted.text
        reviewed = await poll(lambda: waiting_after(client, "review", 1), "the review round", 300)
        thread = (
            await http.get(f"{REPO}/pulls/{view.number}/comments", headers=as_person("carol"))
        ).json()
        summary = await comments_with(http, view.number, "**Review round 1.**")
        state = (await http.get("/_emulator/state")).json()

    round_ = next(r for r in reviewed.pull_request.rounds if r.kind == "review")  # type: ignore[union-attr]
    assert round_.commit is None and round_.outcome == "not pushed: no comment was addressed"
    assert git("ls-remote", url, f"refs/heads/{fixed.branch}").split()[0] == before
    replies = [c["body"].split("\n\n<sub>")[0] for c in thread if c["in_reply_to_id"]]
    assert replies == [
        "Not addressed, so nothing was pushed for it: power() still has no docstring. Left out "
        "of the round, as no comment is about them: `divide` in `calc/operations.py`."
    ]
    assert summary and "Commit" not in summary[0] and "(re: comment" in summary[0]
    notices = [m["content"] for m in state["discord"]["messages"]]
    assert not any("review round 1 pushed" in n for n in notices)
    check_row("review round held to its comments", github=[*replies, *summary])
