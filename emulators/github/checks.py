"""Check runs and commit statuses (create, update, list for a ref), with their webhooks."""

from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, Query, Request

from emulators.github import hook_shapes as hook_shapes
from emulators.github.actions_shapes import ACTIONS_APP, check_run_app, is_actions
from emulators.github.commits import commit_facts
from emulators.github.routes import _git, branch_sha, github_time, require_token, validation_failed
from emulators.github.store import (
    Json,
    bare_path,
    base_url,
    collection,
    find_repo,
    request_caller,
    user_json,
)
from emulators.github.webhooks import GitHubWebhooks
from emulators.state import EmulatorState

JsonObject = Annotated[dict[str, Any], Body()]
CHECK_STATES = {"queued", "in_progress", "completed"}
STATUS_STATES = {"error", "failure", "pending", "success"}
CI_LOGIN = hook_shapes.CI_APP


def create_checks_router(
    state: EmulatorState, repos_root: Path, hooks: GitHubWebhooks
) -> APIRouter:
    """The checks and statuses routes of one emulator."""
    api = APIRouter(prefix="/api/v3/repos/{owner}/{repo}", dependencies=[Depends(require_token)])

    async def resolve(r: Json, ref: str) -> str:
        sha = await branch_sha(bare_path(repos_root, r), ref)
        return (
            sha
            or await _git(bare_path(repos_root, r), "rev-parse", "--verify", "--quiet", ref)
            or ref
        )

    def pulls_for(r: Json, sha: str, base: str) -> list[Json]:
        full = f"{r['owner']}/{r['name']}"
        return [
            hook_shapes.pull_request_ref(p, r, base)
            for p in state.data["pulls"]
            if p["repo"] == full and p["state"] == "open" and p["head_sha"] == sha
        ]

    def suite_json(r: Json, run: Json, base: str) -> Json:
        """The check suite of a run: one run per suite here, so it shares the run's state."""
        full = f"{r['owner']}/{r['name']}"
        return {
            "id": run["suite_id"], "node_id": f"CS_{run['suite_id']}",
            "head_branch": run.get("head_branch"), "head_sha": run["head_sha"],
            "status": run["status"], "conclusion": run.get("conclusion"),
            "url": f"{base}/api/v3/repos/{full}/check-suites/{run['suite_id']}",
            "before": None, "after": run["head_sha"],
            "pull_requests": pulls_for(r, run["head_sha"], base),
            "app": check_run_app(run, hook_shapes.app(base)),
            "created_at": run["started_at"],
            "updated_at": run.get("completed_at") or run["started_at"],
        }  # fmt: skip

    def run_json(r: Json, run: Json, base: str) -> Json:
        full = f"{r['owner']}/{r['name']}"
        url = f"{base}/api/v3/repos/{full}/check-runs/{run['id']}"
        output = run["output"]
        return {
            "id": run["id"],
            "node_id": f"CR_{run['id']}",
            "head_sha": run["head_sha"],
            "external_id": run.get("external_id") or "",
            "url": url,
            "html_url": f"{base}/{full}/runs/{run['id']}",
            "details_url": run.get("details_url"),
            "status": run["status"],
            "conclusion": run.get("conclusion"),
            "started_at": run["started_at"],
            "completed_at": run.get("completed_at"),
            "output": {
                "title": output.get("title"),
                "summary": output.get("summary"),
                "text": output.get("text"),
                "annotations_count": len(output.get("annotations") or []),
                "annotations_url": f"{url}/annotations",
            },
            "name": run["name"],
            "check_suite": suite_json(r, run, base),
            "app": check_run_app(run, hook_shapes.app(base)),
            "pull_requests": pulls_for(r, run["head_sha"], base),
        }

    async def announce(r: Json, run: Json, action: str, request: Request) -> None:
        base = base_url(request)
        body = run_json(r, run, base)
        body["details_url"] = body["details_url"] or body["html_url"]  # GitHub's default
        rest = {"repository": hook_shapes.repository(r, base),
                "sender": hook_shapes.person(CI_LOGIN, base)}  # fmt: skip
        hooks.send("check_run", {"action": action, "check_run": body, **rest})
        if action == "completed":  # one run per suite here: the suite completes with it
            full = f"{r['owner']}/{r['name']}"
            head = await commit_facts(bare_path(repos_root, r), run["head_sha"])
            suite = suite_json(r, run, base) | {
                "check_runs_url": f"{body['check_suite']['url']}/check-runs",
                "latest_check_runs_count": 1,
                "head_commit": hook_shapes.simple_commit(head, full, base) if head else None,
            }
            hooks.send("check_suite", {"action": "completed", "check_suite": suite, **rest})

    def find_run(r: Json, run_id: int) -> Json:
        full = f"{r['owner']}/{r['name']}"
        for run in collection(state, "check_runs"):
            if run["repo"] == full and run["id"] == run_id:
                return run
        raise validation_failed({"resource": "CheckRun", "field": "id", "code": "missing"})

    def apply(run: Json, payload: Json) -> None:
        status = payload.get("status") or ("completed" if payload.get("conclusion") else None)
        if status and status not in CHECK_STATES:
            raise validation_failed({"resource": "CheckRun", "field": "status", "code": "invalid"})
        if status:
            run["status"] = status
        if payload.get("conclusion"):
            run["conclusion"], run["status"] = payload["conclusion"], "completed"
        if run["status"] == "completed" and not run.get("completed_at"):
            run["completed_at"] = payload.get("completed_at") or github_time()
        for field in ("details_url", "external_id", "name"):
            if payload.get(field):
                run[field] = payload[field]
        if isinstance(payload.get("output"), dict):
            run["output"] = {**run["output"], **payload["output"]}

    @api.post("/check-runs", status_code=201)
    async def create_check_run(owner: str, repo: str, request: Request, payload: JsonObject) -> Any:
        r = find_repo(state, owner, repo)
        missing = [f for f in ("name", "head_sha") if not payload.get(f)]
        if missing:
            raise validation_failed(
                *({"resource": "CheckRun", "field": f, "code": "missing_field"} for f in missing)
            )
        run = {
            "id": state.next_id("github-id", 5000),
            "repo": f"{r['owner']}/{r['name']}",
            "name": payload["name"],
            "head_sha": await resolve(r, str(payload["head_sha"])),
            "status": "queued",
            "conclusion": None,
            "started_at": payload.get("started_at") or github_time(),
            "completed_at": None,
            "output": {},
            "suite_id": state.next_id("github-id", 5000),
            "app": ACTIONS_APP["slug"] if is_actions(request) else CI_LOGIN,
            "head_branch": next(
                (p["head"] for p in state.data["pulls"] if p["head_sha"] == payload["head_sha"]),
                None,
            ),
        }
        apply(run, payload)
        collection(state, "check_runs").append(run)
        state.save()
        await announce(r, run, "completed" if run["status"] == "completed" else "created", request)
        return run_json(r, run, base_url(request))

    @api.patch("/check-runs/{run_id}")
    async def update_check_run(
        owner: str, repo: str, run_id: int, request: Request, payload: JsonObject
    ) -> Any:
        r = find_repo(state, owner, repo)
        run = find_run(r, run_id)
        was = run["status"]
        apply(run, payload)
        state.save()
        if run["status"] == "completed" and was != "completed":
            await announce(r, run, "completed", request)
        return run_json(r, run, base_url(request))

    @api.get("/check-runs/{run_id}")
    def get_check_run(owner: str, repo: str, run_id: int, request: Request) -> Any:
        r = find_repo(state, owner, repo)
        return run_json(r, find_run(r, run_id), base_url(request))

    @api.get("/check-runs/{run_id}/annotations")
    def list_annotations(owner: str, repo: str, run_id: int) -> Any:
        run = find_run(find_repo(state, owner, repo), run_id)
        return [
            {
                "path": a["path"],
                "start_line": a["start_line"],
                "end_line": a.get("end_line", a["start_line"]),
                "annotation_level": a.get("annotation_level", "failure"),
                "message": a["message"],
                "title": a.get("title"),
                "raw_details": a.get("raw_details"),
                "blob_href": "",
                "start_column": None,
                "end_column": None,
            }
            for a in run["output"].get("annotations") or []
        ]

    @api.get("/commits/{ref:path}/check-runs")
    async def list_check_runs(
        owner: str,
        repo: str,
        ref: str,
        request: Request,
        check_name: str | None = None,
        per_page: int = Query(30, ge=1, le=100),
    ) -> Any:
        r = find_repo(state, owner, repo)
        sha = await resolve(r, ref)
        full = f"{r['owner']}/{r['name']}"
        runs = [
            run_json(r, run, base_url(request))
            for run in reversed(collection(state, "check_runs"))
            if run["repo"] == full and run["head_sha"] == sha and check_name in (None, run["name"])
        ]
        return {"total_count": len(runs), "check_runs": runs[:per_page]}

    def status_json(r: Json, s: Json, base: str) -> Json:
        full = f"{r['owner']}/{r['name']}"
        return {
            "url": f"{base}/api/v3/repos/{full}/statuses/{s['sha']}",
            "id": s["id"],
            "node_id": f"SC_{s['id']}",
            "state": s["state"],
            "description": s.get("description"),
            "target_url": s.get("target_url"),
            "context": s["context"],
            "created_at": s["created_at"],
            "updated_at": s["created_at"],
            "creator": user_json(s["creator"]),
        }

    @api.post("/statuses/{sha}", status_code=201)
    async def create_status(
        owner: str, repo: str, sha: str, request: Request, payload: JsonObject
    ) -> Any:
        r = find_repo(state, owner, repo)
        if payload.get("state") not in STATUS_STATES:
            raise validation_failed(
                {
                    "resource": "Status",
                    "field": "state",
                    "code": "custom",
                    "message": "state is not included in the list",
                }
            )
        status = {
            "id": state.next_id("github-id", 5000),
            "repo": f"{r['owner']}/{r['name']}",
            "sha": sha,
            "state": payload["state"],
            "description": payload.get("description"),
            "target_url": payload.get("target_url"),
            "context": payload.get("context") or "default",
            "created_at": github_time(),
            "creator": request_caller(state, request)[0],
        }
        collection(state, "statuses").append(status)
        state.save()
        base = base_url(request)
        commit_url = f"{base}/api/v3/repos/{status['repo']}/commits/{sha}"
        branches = [
            {"name": p["head"], "commit": {"sha": sha, "url": commit_url}, "protected": False}
            for p in state.data["pulls"]
            if p["repo"] == status["repo"] and p["head_sha"] == sha
        ]
        facts = await commit_facts(bare_path(repos_root, r), sha)
        event = {
            k: status[k] for k in ("id", "sha", "state", "description", "target_url", "context")
        }
        event |= {
            "name": status["repo"],
            "branches": branches,
            "commit": hook_shapes.status_commit(facts, status["repo"], base) if facts else None,
            "created_at": status["created_at"],
            "updated_at": status["created_at"],
            "repository": hook_shapes.repository(r, base),
            "sender": hook_shapes.person(status["creator"], base),
        }
        hooks.send("status", event)
        return status_json(r, status, base)

    @api.get("/commits/{ref:path}/statuses")
    async def list_statuses(owner: str, repo: str, ref: str, request: Request) -> Any:
        r = find_repo(state, owner, repo)
        sha = await resolve(r, ref)
        full = f"{r['owner']}/{r['name']}"
        found = [
            s
            for s in reversed(collection(state, "statuses"))
            if s["repo"] == full and s["sha"] == sha
        ]
        return [status_json(r, s, base_url(request)) for s in found]

    return api
