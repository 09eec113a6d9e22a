"""Admin routes that add repositories and issues to running emulators (`python -m emulators`)."""

from pathlib import Path
from typing import Any

from fastapi import APIRouter, HTTPException
from pydantic import BaseModel, Field

from emulators.git_hosting import create_empty_repository
from emulators.jira.views import jira_time
from emulators.state import EmulatorState
from integrations.jira.adf import markdown_to_adf

NAME = r"^[A-Za-z0-9_.-]+$"


class NewRepository(BaseModel):
    """A repository to host: empty, ready for `git push`."""

    owner: str = Field(pattern=NAME)
    name: str = Field(pattern=NAME)
    default_branch: str = "main"
    description: str | None = None


class NewIssue(BaseModel):
    """A Jira issue; the key is the project's next number unless given."""

    project: str = Field(pattern=r"^[A-Z][A-Z0-9]*$")
    summary: str = Field(min_length=1)
    description: str = ""
    labels: list[str] = Field(default_factory=list)
    components: list[str] = Field(default_factory=list)
    issuetype: str = "Task"
    reporter: str | None = Field(default=None, description="a seeded user's account id")
    key: str | None = Field(default=None, pattern=r"^[A-Z][A-Z0-9]*-\d+$")


def create_admin_router(state: EmulatorState, repos_root: Path) -> APIRouter:
    """POST /_emulator/repositories and /_emulator/issues; never logged, never faulted."""
    router = APIRouter(prefix="/_emulator", tags=["emulator"])

    @router.post("/repositories", status_code=201)
    def add_repository(new: NewRepository) -> dict[str, Any]:
        repos = state.data["repositories"]
        existing = next(
            (r for r in repos if (r["owner"], r["name"]) == (new.owner, new.name)), None
        )
        if existing is None:
            existing = {"id": state.next_id("repository", 2000), **new.model_dump()}
            existing["private"] = False
            repos.append(existing)
            state.save()
        create_empty_repository(repos_root, new.owner, new.name, existing["default_branch"])
        return existing

    @router.post("/issues", status_code=201)
    def add_issue(new: NewIssue) -> dict[str, Any]:
        projects, issues = state.data["projects"], state.data["issues"]
        if not any(p["key"] == new.project for p in projects):
            number = state.next_id("jira-project-id", 10100)
            projects.append({"id": str(number), "key": new.project, "name": new.project})
        key = new.key or f"{new.project}-{state.next_id(f'issue-number:{new.project}', 1)}"
        while new.key is None and key in issues:
            key = f"{new.project}-{state.next_id(f'issue-number:{new.project}', 1)}"
        if key in issues:
            raise HTTPException(409, f"issue {key} already exists")
        created = jira_time()
        issues[key] = {
            "id": str(state.next_id("jira-issue-id", 20001)),
            "key": key,
            "project": new.project,
            "issuetype": new.issuetype,
            "summary": new.summary,
            "description": markdown_to_adf(new.description) if new.description else None,
            "labels": new.labels,
            "components": new.components,
            "status": "To Do",
            "reporter": new.reporter or next((u["accountId"] for u in state.data["users"]), ""),
            "created": created,
            "updated": created,
            "custom_fields": {},
            "comments": [],
        }
        state.save()
        return {"key": key}

    return router
