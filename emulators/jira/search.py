"""Jira's issue search (`GET /rest/api/{2|3}/search/jql`) for a small JQL subset.

Understood: `text ~ "words"` (issues whose summary, description or labels hold any of the
words, those holding most first) and `project = KEY`, joined with AND.
"""

import re
from typing import Any

from fastapi import APIRouter, Depends, Request

from emulators.jira.routes import API, check_version
from emulators.jira.views import JiraViews, jira_error
from emulators.state import EmulatorState
from integrations.jira.adf import adf_to_markdown

_CLAUSE = re.compile(
    r'^\s*(text\s*~\s*"(?P<text>[^"]*)"|project\s*=\s*"?(?P<project>[A-Z][A-Z0-9_]*)"?)\s*$',
    re.IGNORECASE,
)
_WORD = re.compile(r"[a-z0-9][a-z0-9-]*")
STOP_WORDS = frozenset("a an and are is it of on or the to what which who why with for in".split())


def parse_jql(jql: str) -> tuple[list[str], str | None]:
    """The words of `text ~` and the project of `project =`, or Jira's 400 for anything else."""
    words: list[str] = []
    project = None
    for clause in re.split(r"\s+AND\s+", jql.strip(), flags=re.IGNORECASE):
        match = _CLAUSE.match(clause)
        if match is None:
            raise jira_error(
                400, f"Error in the JQL Query: the emulator does not understand '{clause}'"
            )
        if match.group("text") is not None:
            words += [w for w in _WORD.findall(match.group("text").lower()) if w not in STOP_WORDS]
        else:
            project = match.group("project").upper()
    return words, project


def create_search_router(state: EmulatorState) -> APIRouter:
    """The search route over the shared state."""
    api = APIRouter(prefix=API, tags=["jira"], dependencies=[Depends(check_version)])
    views = JiraViews(state)

    @api.get("/search/jql")
    def search(
        jql: str, version: int, request: Request, fields: str | None = None, maxResults: int = 50
    ) -> Any:
        words, project = parse_jql(jql)
        ranked = []
        for issue in state.data["issues"].values():
            if project and issue["project"] != project:
                continue
            text = " ".join(
                [issue["summary"], adf_to_markdown(issue["description"] or {}), *issue["labels"]]
            ).lower()
            found = set(_WORD.findall(text))
            hits = sum(1 for w in set(words) if w in found)
            if hits or not words:
                ranked.append((-hits, issue["id"], issue))
        base = str(request.base_url).rstrip("/")
        issues = [
            views.issue(issue, version, base, fields) for _, _, issue in sorted(ranked)[:maxResults]
        ]
        return {"issues": issues, "isLast": True}

    return api
