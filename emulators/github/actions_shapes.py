"""GitHub Actions' REST shapes: workflows, workflow runs and jobs, whole.

Every property GitHub's OpenAPI description requires is present (checked by
`tests/contracts/github`), so a client reading one more field finds it as on GitHub.
"""

import zlib
from typing import Any

from fastapi import Request

from emulators.github.shapes import SEED_TIME, minimal_repository, user
from emulators.github.store import token_of, user_json

Json = dict[str, Any]
WORKFLOW_NAME, WORKFLOW_PATH, JOB_NAME = "CI", ".github/workflows/ci.yml", "tests"
RUNNER = {"runner_id": 1, "runner_name": "emulated-runner", "runner_group_id": 1,
          "runner_group_name": "Default"}  # fmt: skip

# The app Actions' check runs (one per job) belong to; the emulated CI creates them with its token.
ACTIONS_APP: Json = {
    "id": 15368, "slug": "github-actions", "name": "GitHub Actions", "owner": user_json("github")
}  # fmt: skip
ACTIONS_TOKEN = "emulated-actions"


def is_actions(request: Request) -> bool:
    """Whether GitHub Actions itself makes the request."""
    return token_of(request.headers.get("authorization", "")) == ACTIONS_TOKEN


def check_run_app(run: Json, default: Json) -> Json:
    """The app a check run belongs to: GitHub Actions for its jobs' runs, else `default`.

    `default` may be a full app shape (webhooks): Actions then takes its fields over it.
    """
    if run.get("app") != ACTIONS_APP["slug"]:
        return default
    owner = default.get("owner", {}) | ACTIONS_APP["owner"]
    return default | ACTIONS_APP | {"owner": owner, "node_id": "MDM6QXBwMTUzNjg="}


def workflow_id(full_name: str) -> int:
    """The id of the one workflow of a repository (stable across restarts)."""
    return zlib.crc32(f"{full_name}:{WORKFLOW_PATH}".encode()) % 10_000_000


def workflow(full_name: str, base: str) -> Json:
    """The repository's workflow, as webhooks nest it."""
    wid = workflow_id(full_name)
    return {
        "id": wid, "node_id": f"W_{wid}", "name": WORKFLOW_NAME, "path": WORKFLOW_PATH,
        "state": "active", "created_at": SEED_TIME, "updated_at": SEED_TIME,
        "url": f"{base}/api/v3/repos/{full_name}/actions/workflows/{wid}",
        "html_url": f"{base}/{full_name}/blob/main/{WORKFLOW_PATH}",
        "badge_url": f"{base}/{full_name}/workflows/{WORKFLOW_NAME}/badge.svg",
    }  # fmt: skip


def minimal_pull(p: Json, r: Json, base: str) -> Json:
    """A pull request as runs and checks list it: number, head and base."""
    api = f"{base}/api/v3/repos/{p['repo']}"
    repo = {"id": r["id"], "url": api, "name": r["name"]}
    return {
        "id": p["id"], "number": p["number"], "url": f"{api}/pulls/{p['number']}",
        "head": {"ref": p["head"], "sha": p["head_sha"], "repo": repo},
        "base": {"ref": p["base"], "sha": p["base_sha"], "repo": repo},
    }  # fmt: skip


def workflow_run(run: Json, r: Json, pulls: list[Json], base: str) -> Json:
    """A workflow run: its commit, state, attempt and every URL GitHub gives."""
    full = run["repo"]
    api = f"{base}/api/v3/repos/{full}/actions/runs/{run['id']}"
    attempt_url = f"{api}/attempts/{run['run_attempt'] - 1}" if run["run_attempt"] > 1 else None
    repo = minimal_repository(r, base)
    actor = user(run["actor"], base)
    return {
        "id": run["id"], "name": WORKFLOW_NAME, "node_id": f"WFR_{run['id']}",
        "check_suite_id": run["check_suite_id"],
        "check_suite_node_id": f"CS_{run['check_suite_id']}",
        "head_branch": run["head_branch"], "head_sha": run["head_sha"], "path": WORKFLOW_PATH,
        "run_number": run["run_number"], "run_attempt": run["run_attempt"],
        "event": run["event"], "display_title": run["head_commit"]["message"].split("\n")[0],
        "status": run["status"], "conclusion": run.get("conclusion"),
        "workflow_id": workflow_id(full), "url": api,
        "html_url": f"{base}/{full}/actions/runs/{run['id']}",
        "pull_requests": [minimal_pull(p, r, base) for p in pulls],
        "created_at": run["created_at"], "updated_at": run["updated_at"],
        "run_started_at": run["run_started_at"], "actor": actor, "triggering_actor": actor,
        "jobs_url": f"{api}/jobs", "logs_url": f"{api}/logs",
        "check_suite_url": f"{base}/api/v3/repos/{full}/check-suites/{run['check_suite_id']}",
        "artifacts_url": f"{api}/artifacts", "cancel_url": f"{api}/cancel",
        "rerun_url": f"{api}/rerun", "previous_attempt_url": attempt_url,
        "workflow_url": f"{base}/api/v3/repos/{full}/actions/workflows/{workflow_id(full)}",
        "head_commit": run["head_commit"], "repository": repo, "head_repository": repo,
        "referenced_workflows": [],
    }  # fmt: skip


def job(j: Json, base: str) -> Json:
    """A job of a workflow run: its steps, runner and check run."""
    full = j["repo"]
    api = f"{base}/api/v3/repos/{full}"
    return {
        "id": j["id"], "node_id": f"J_{j['id']}", "run_id": j["run_id"],
        "run_url": f"{api}/actions/runs/{j['run_id']}", "run_attempt": j["run_attempt"],
        "head_sha": j["head_sha"], "head_branch": j["head_branch"],
        "workflow_name": WORKFLOW_NAME, "name": j["name"],
        "url": f"{api}/actions/jobs/{j['id']}",
        "html_url": f"{base}/{full}/actions/runs/{j['run_id']}/job/{j['id']}",
        "status": j["status"], "conclusion": j.get("conclusion"),
        "created_at": j["created_at"], "started_at": j["started_at"],
        "completed_at": j.get("completed_at"),
        "check_run_url": f"{api}/check-runs/{j['id']}",
        "steps": [dict(step) for step in j["steps"]], "labels": ["ubuntu-latest"], **RUNNER,
    }  # fmt: skip
