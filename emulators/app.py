"""One FastAPI app serving local Jira, GitHub (with git hosting) and Discord, with a request log,
fault injection and Jira webhooks."""

import shutil
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
from fastapi import APIRouter, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from access.admin import AdminAccess, AdminGuard
from emulators.admin_routes import create_admin_router
from emulators.control import create_control_router
from emulators.discord_routes import create_discord_router
from emulators.git_hosting import (
    branch_heads,
    create_git_router,
    ensure_seed_repository,
    repository_path,
)
from emulators.git_races import PushRaces, commit_on_branch, create_races_router
from emulators.github.actions import create_actions_router
from emulators.github.app_routes import create_app_router
from emulators.github.app_tokens import refused as installation_token_refused
from emulators.github.checks import create_checks_router
from emulators.github.ci import EmulatedCI
from emulators.github.ci_faults import create_ci_faults_router
from emulators.github.errors import DOCS
from emulators.github.issues import announce_label, create_issues_router
from emulators.github.merge import create_merge_router, note_push, send_pull_event
from emulators.github.repos import create_user_repos_router
from emulators.github.reviews import announce_issue_comment, create_reviews_router
from emulators.github.routes import create_github_router
from emulators.github.store import base_url, request_caller, token_of
from emulators.github.webhooks import GitHubWebhooks, create_github_hooks_router
from emulators.gitlab.emulator import GitLabEmulator
from emulators.gitlab.routes import gitlab_project_paths
from emulators.gitlab.webhooks import GitLabWebhooks
from emulators.jira.routes import create_jira_router
from emulators.jira.search import create_search_router
from emulators.jira.webhooks import JiraWebhooks
from emulators.middleware import RecordingMiddleware
from emulators.state import EmulatorError, EmulatorState, RequestLog
from faults.injector import FaultInjector

DEFAULT_SEED = Path(__file__).resolve().parent / "seed.json"
ADMIN_PREFIX = "/_emulator/"
# Open to anyone: the health check, and job logs behind URLs the API signs (as GitHub's are).
OPEN_ADMIN_ROUTES = ("/_emulator/health", "/_emulator/actions/logs/")


def create_app(
    state_dir: Path,
    seed_file: Path | None = None,
    reset: bool = False,
    *,
    faults: FaultInjector | None = None,
    webhooks: JiraWebhooks | None = None,
    github_webhooks: GitHubWebhooks | None = None,
    gitlab_webhooks: GitLabWebhooks | None = None,
    ci: bool = False,
    ci_reporter: str = "checks",
    admin: AdminAccess | None = None,
) -> FastAPI:
    """The emulators over `state_dir` (wiped first with `reset`), faults, Jira, GitHub and
    GitLab webhooks, and with `ci` an emulated CI that tests every push, reporting as a check
    run (`ci_reporter="checks"`) or as a GitHub Actions workflow run (`"actions"`), and as
    GitLab pipelines on GitLab projects. `admin` says who may use the `/_emulator` routes
    (default: callers on this machine)."""
    # Without `faults`, the seed file's "faults" are in force; without `webhooks`, Jira events
    # are not sent anywhere.
    seed_file = seed_file or DEFAULT_SEED
    if reset:
        shutil.rmtree(state_dir, ignore_errors=True)
    state = EmulatorState.open(state_dir, seed_file)
    repos_root = state_dir / "git"
    for repo in state.data["repositories"]:
        if repo.get("source"):
            source = seed_file.parent / repo["source"]
            ensure_seed_repository(repos_root, repo["owner"], repo["name"], source)
    for project in state.data.get("gitlab_projects", []):
        if project.get("source"):
            owner, name = project["path_with_namespace"].split("/")
            source = seed_file.parent / project["source"]
            ensure_seed_repository(repos_root, owner, name, source)
    log = RequestLog()
    faults = faults or FaultInjector.from_file(seed_file)
    webhooks = webhooks or JiraWebhooks(None)
    hooks = github_webhooks or GitHubWebhooks(None)
    emulated_ci = EmulatedCI(state, repos_root, hooks, reporter=ci_reporter)
    gitlab = GitLabEmulator(
        state, repos_root, gitlab_webhooks or GitLabWebhooks(None), emulated_ci, ci
    )

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        await emulated_ci.aclose()
        await webhooks.aclose()
        await hooks.aclose()
        await gitlab.aclose()

    async def after_push(
        owner: str, repo: str, request: Request, moved: list[tuple[str, str, str]]
    ) -> None:
        if f"{owner}/{repo}".lower() in gitlab_project_paths(state):
            await gitlab.pushed(owner, repo, request, moved)
            return  # GitLab projects send no GitHub events
        authorization = request.headers.get("authorization", "")
        base = base_url(request)
        await note_push(state, repos_root, hooks, owner, repo, authorization, base, moved)
        if ci:
            emulated_ci.pushed(owner, repo, [(ref, sha) for ref, _, sha in moved], base)

    async def pull_closed(pr: dict[str, Any], request: Request) -> None:
        closer = request_caller(state, request)[0]
        await send_pull_event(state, repos_root, hooks, pr, "closed", closer, base_url(request))

    races = PushRaces()

    async def before_push(owner: str, repo: str, request: Request) -> None:
        """A queued race: the person's commit lands first, sent as their push."""
        for race in races.take(owner, repo):
            bare = repository_path(repos_root, owner, repo)
            ref = f"refs/heads/{race.branch}"
            old = (await branch_heads(bare)).get(ref, "0" * 40)
            sha = await commit_on_branch(bare, race)
            login = {u["login"]: u["token"] for u in state.data.get("github_users", [])}
            authorization = f"Bearer {login.get(race.author, '')}"
            base = base_url(request)
            moved = [(ref, old, sha)]
            await note_push(state, repos_root, hooks, owner, repo, authorization, base, moved)
            if ci:
                emulated_ci.pushed(owner, repo, [(ref, sha)], base)

    app = FastAPI(title="ticketsmith emulators", lifespan=lifespan)
    app.state.emulator = state
    app.state.faults = faults
    app.state.webhooks = webhooks
    app.state.github_webhooks = hooks
    app.state.ci = emulated_ci
    app.state.gitlab = gitlab
    app.add_exception_handler(EmulatorError, _emulator_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(HTTPException, _http_error)
    add_routes(app, create_control_router(state, log, faults, webhooks))
    add_routes(app, create_admin_router(state, repos_root))
    add_routes(app, create_jira_router(state, webhooks))
    add_routes(app, create_search_router(state))
    add_routes(app, create_github_hooks_router(hooks))
    add_routes(
        app,
        create_github_router(
            state,
            repos_root,
            caller=lambda request: request_caller(state, request),
            comment_added=lambda pr, comment, request: announce_issue_comment(
                state, hooks, pr, comment, request
            ),
            pull_closed=pull_closed,
            labeled=lambda thread, label, request: announce_label(
                state, hooks, thread, label, request
            ),
        ),
    )
    add_routes(app, create_issues_router(state, hooks))
    for router in gitlab.routers():
        add_routes(app, router)
    add_routes(app, create_checks_router(state, repos_root, hooks))
    logs_dir = emulated_ci.actions.logs_dir
    add_routes(app, create_actions_router(state, logs_dir, emulated_ci.rerun))
    add_routes(app, create_ci_faults_router(emulated_ci.actions.faults))
    add_routes(app, create_reviews_router(state, hooks))
    add_routes(app, create_merge_router(state, repos_root, hooks))
    add_routes(app, create_user_repos_router(state, repos_root))
    add_routes(app, create_app_router(state))
    add_routes(app, create_discord_router(state))
    add_routes(app, create_races_router(races))
    add_routes(
        app,
        create_git_router(
            repos_root,
            after_push,
            before_push,
            refused=lambda request: installation_token_refused(
                state, token_of(request.headers.get("authorization", ""))
            ),
        ),
    )
    app.add_middleware(RecordingMiddleware, log=log, faults=faults, error=service_error)
    app.add_middleware(AdminGuard, access=admin or AdminAccess(), guarded=admin_route)
    emulated_ci.transport = httpx.ASGITransport(app=app)
    return app


def add_routes(app: FastAPI, router: APIRouter) -> None:
    """The router's routes on the app as they are: `include_router` would build each route
    again, and an emulator per test spent most of its start there."""
    app.router.routes.extend(router.routes)


def admin_route(method: str, path: str) -> bool:
    """The `/_emulator` routes that read or change the emulators' state: the admin rule's."""
    return path.startswith(ADMIN_PREFIX) and not path.startswith(OPEN_ADMIN_ROUTES)


def service_error(
    path: str, status_code: int, message: str, headers: Mapping[str, str] | None = None
) -> JSONResponse:
    """An error in the body shape of the service the path belongs to."""
    if path.startswith("/api/v3/"):
        body: dict[str, Any] = {"message": message, "documentation_url": DOCS}
    elif path.startswith("/api/v4/"):
        body = {"message": message}
    elif path.startswith("/api/webhooks/"):
        body = {"message": message, "code": 50035 if status_code == 400 else 0}
    elif path.startswith("/rest/api/"):
        body = {"errorMessages": [message], "errors": {}}
    else:
        body = {"detail": message}
    return JSONResponse(body, status_code, headers=headers)


async def _emulator_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, EmulatorError)
    return JSONResponse(exc.body, exc.status_code)


async def _validation_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    errors = exc.errors()
    if any(e.get("type") == "json_invalid" for e in errors):
        return service_error(request.url.path, 400, "Problems parsing JSON")
    message = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in errors)
    status_code = 422 if request.url.path.startswith("/api/v3/") else 400
    return service_error(request.url.path, status_code, message)


async def _http_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, HTTPException)
    return service_error(request.url.path, exc.status_code, str(exc.detail), exc.headers)
