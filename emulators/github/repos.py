"""GitHub REST v3 `GET /user` and `POST /user/repos` (the authenticated user's repositories).

A new repository is a real bare git repository served by the git hosting; `auto_init` gives
it an initial commit with a README on its default branch, as GitHub does.
"""

import subprocess
import tempfile
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, Request
from fastapi.responses import JSONResponse

from emulators.git_hosting import ensure_seed_repository, repository_path
from emulators.github import shapes as shapes
from emulators.github.routes import (
    BOT_LOGIN,
    field_error,
    github_error,
    require_token,
    validation_failed,
)
from emulators.state import EmulatorState

_VALID_NAME = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_."


def create_user_repos_router(state: EmulatorState, repos_root: Path) -> APIRouter:
    """The routes over the shared state; repositories belong to the emulator's bot user."""
    router = APIRouter(prefix="/api/v3", tags=["github"], dependencies=[Depends(require_token)])

    @router.get("/user")
    def get_user(request: Request) -> Any:
        return shapes.authenticated_user(BOT_LOGIN, str(request.base_url).rstrip("/"))

    @router.post("/user/repos", status_code=201)
    def create_repository(
        request: Request, payload: Annotated[dict[str, Any], Body()]
    ) -> JSONResponse:
        name = payload.get("name")
        if not isinstance(name, str) or not name:
            raise validation_failed(field_error("Repository", "name", "missing_field"))
        if name in (".", "..") or any(c not in _VALID_NAME for c in name):
            raise validation_failed(field_error("Repository", "name"))
        taken = any(
            (r["owner"].lower(), r["name"].lower()) == (BOT_LOGIN, name.lower())
            for r in state.data["repositories"]
        )
        if taken:
            raise github_error(
                422,
                "Repository creation failed.",
                [{"resource": "Repository", "code": "custom", "field": "name",
                  "message": "name already exists on this account"}],
            )  # fmt: skip
        repo = {
            "id": state.next_id("repository", 2000),
            "owner": BOT_LOGIN,
            "name": name,
            "description": payload.get("description"),
            "default_branch": "main",
            "private": bool(payload.get("private", False)),
        }
        if payload.get("auto_init"):
            with tempfile.TemporaryDirectory() as tmp:
                readme = f"# {name}\n\n{payload.get('description') or ''}\n"
                (Path(tmp) / "README.md").write_text(readme)
                ensure_seed_repository(repos_root, BOT_LOGIN, name, Path(tmp))
        else:
            bare = repository_path(repos_root, BOT_LOGIN, name)
            bare.mkdir(parents=True, exist_ok=True)
            _init_bare(bare)
        state.data["repositories"].append(repo)
        state.save()
        return JSONResponse(repo_json(repo, str(request.base_url).rstrip("/")), 201)

    return router


def _init_bare(bare: Path) -> None:
    subprocess.run(
        ["git", "init", "--quiet", "--bare", "--initial-branch=main", str(bare)], check=True
    )


def repo_json(r: dict[str, Any], base: str) -> dict[str, Any]:
    """A repository in GitHub's shape."""
    return shapes.repository(r, base)
