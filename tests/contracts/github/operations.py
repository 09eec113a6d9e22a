"""The GitHub operations the emulator serves, each checked against GitHub's official schema.

One line per operation: the OpenAPI method, path and status, and the request that gets that
answer from an emulator holding demo/calc, pull request #1 (from `ticketsmith/DEMO-1`), a
second branch `ticketsmith/DEMO-2`, issue #2 (opened by dave, with a comment), the team
`demo/maintainers` with carol in it, a failed Actions run on DEMO-1's head (`{run_id}` and
`{job_id}` in a URL name it; its job is rerun before its failed jobs are) and a GitHub App
installed on demo (`{installation_id}`).
After adding a line, run
`python -m tests.contracts.github.extract` to add its schema to `schemas.json`.
"""

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Operation:
    """An operation of GitHub's REST API and a request that exercises it on the emulator."""

    method: str
    path: str
    status: int
    url: str
    body: Any = None
    as_app: bool = False  # authenticated with the GitHub App's JWT instead of a token

    @property
    def key(self) -> str:
        """How the operation's schema is named in `schemas.json`."""
        return f"{self.method.upper()} {self.path} {self.status}"


REPO, CALC = "/repos/{owner}/{repo}", "/repos/demo/calc"
PULL, ISSUE = f"{REPO}/pulls/{{pull_number}}", f"{REPO}/issues/{{issue_number}}"
RUN, JOB = f"{REPO}/actions/runs/{{run_id}}", f"{REPO}/actions/jobs/{{job_id}}"
CALC_RUN = f"{CALC}/actions/runs/{{run_id}}"
TOKENS = "/app/installations/{installation_id}/access_tokens"
MEMBERSHIP = "/orgs/{org}/teams/{team_slug}/memberships/{username}"
NEW_PULL = {"title": "DEMO-2: more", "head": "ticketsmith/DEMO-2", "base": "main", "draft": True}

OPERATIONS = [
    Operation("get", REPO, 200, CALC),
    Operation("get", f"{REPO}/pulls", 200, f"{CALC}/pulls?state=all"),
    Operation("post", f"{REPO}/pulls", 201, f"{CALC}/pulls", NEW_PULL),
    Operation("get", PULL, 200, f"{CALC}/pulls/1"),
    Operation("patch", PULL, 200, f"{CALC}/pulls/1", {"body": "New"}),
    Operation("post", f"{ISSUE}/comments", 201, f"{CALC}/issues/1/comments", {"body": "Hi"}),
    Operation("post", f"{ISSUE}/labels", 200, f"{CALC}/issues/1/labels", {"labels": ["x"]}),
    Operation("post", f"{REPO}/issues", 201, f"{CALC}/issues", {"title": "Docs", "body": "More"}),
    Operation("get", ISSUE, 200, f"{CALC}/issues/2"),
    Operation("patch", ISSUE, 200, f"{CALC}/issues/2", {"title": "Docs, again"}),
    Operation("get", f"{ISSUE}/comments", 200, f"{CALC}/issues/2/comments?per_page=100&page=1"),
    Operation("get", MEMBERSHIP, 200, "/orgs/demo/teams/maintainers/memberships/carol"),
    Operation("get", "/user", 200, "/user"),
    Operation("post", "/user/repos", 201, "/user/repos", {"name": "made", "auto_init": True}),
    Operation("get", f"{REPO}/actions/runs", 200, f"{CALC}/actions/runs?event=push"),
    Operation("get", RUN, 200, CALC_RUN),
    Operation("get", f"{RUN}/jobs", 200, f"{CALC_RUN}/jobs?filter=all"),
    Operation("get", JOB, 200, f"{CALC}/actions/jobs/{{job_id}}"),
    Operation("post", f"{JOB}/rerun", 201, f"{CALC}/actions/jobs/{{job_id}}/rerun"),
    Operation("post", f"{RUN}/rerun-failed-jobs", 201, f"{CALC_RUN}/rerun-failed-jobs"),
    Operation("get", f"{REPO}/installation", 200, f"{CALC}/installation", as_app=True),
    Operation("post", TOKENS, 201, TOKENS, as_app=True),
]
