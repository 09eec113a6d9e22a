"""The emulators' persistent state and their request log."""

import json
import os
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Self

from integrations.jira.adf import markdown_to_adf


class EmulatorError(Exception):
    """An error answer shaped like the emulated API's own (status code and JSON body)."""

    def __init__(self, status_code: int, body: dict[str, Any]) -> None:
        super().__init__(f"{status_code}: {body}")
        self.status_code = status_code
        self.body = body


def now() -> datetime:
    """The current time in UTC."""
    return datetime.now(UTC)


class EmulatorState:
    """All emulated data in one JSON document, written to disk after every change."""

    def __init__(self, path: Path, data: dict[str, Any]) -> None:
        self.path = path
        self.data = data

    @classmethod
    def open(cls, state_dir: Path, seed_file: Path) -> Self:
        """Load `state_dir/state.json`, or start from the seed file when there is none."""
        state_dir.mkdir(parents=True, exist_ok=True)
        path = state_dir / "state.json"
        if path.exists():
            return cls(path, json.loads(path.read_text()))
        state = cls(path, seed_data(json.loads(seed_file.read_text())))
        state.save()
        return state

    def save(self) -> None:
        """Write the state atomically: a crash leaves the old or the new file, never half."""
        fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=".state-", suffix=".json")
        try:
            with os.fdopen(fd, "w") as f:
                json.dump(self.data, f, indent=1)
            os.replace(tmp, self.path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

    def next_id(self, counter: str, start: int = 1) -> int:
        """The next value of a named counter (comment ids, PR numbers...)."""
        counters = self.data.setdefault("counters", {})
        counters[counter] = counters.get(counter, start - 1) + 1
        return counters[counter]

    def user(self, account_id: str) -> dict[str, Any] | None:
        """A seeded Jira user by account id."""
        return next((u for u in self.data["users"] if u["accountId"] == account_id), None)


def seed_data(seed: dict[str, Any]) -> dict[str, Any]:
    """The initial state from seed.json: descriptions become ADF, issues get ids and dates."""
    created = seed.get("created", "2025-01-06T09:00:00.000+0000")
    issues = {}
    for number, issue in enumerate(seed.get("issues", []), 10001):
        description = issue.get("description")
        custom = {k: markdown_to_adf(v) for k, v in (issue.get("custom_fields") or {}).items()}
        issues[issue["key"]] = {
            "id": str(number),
            "created": created,
            "updated": created,
            "issuetype": "Task",
            **issue,
            "description": markdown_to_adf(description) if description else None,
            "custom_fields": custom,
            "comments": [],
        }
    return {
        "users": seed.get("users", []),
        "projects": seed.get("projects", []),
        "fields": seed.get("fields", []),
        "issues": issues,
        "repositories": seed.get("repositories", []),
        "github_users": seed.get("github_users", []),
        "github_app": seed.get("github_app"),  # the GitHub App it knows, if any
        "github_teams": seed.get("github_teams", {}),
        "gitlab_projects": seed.get("gitlab_projects", []),
        "gitlab_users": seed.get("gitlab_users", []),
        "pulls": [],
        "discord": {"webhooks": seed.get("discord_webhooks", []), "messages": []},
        "counters": {},
    }


class RequestLog:
    """Every request the emulators answered, in order, kept in memory."""

    def __init__(self) -> None:
        self.entries: list[dict[str, Any]] = []

    def record(
        self,
        method: str,
        path: str,
        query: dict[str, str],
        status_code: int,
        body: Any,
        started: datetime | None = None,
        fault: dict[str, Any] | None = None,
    ) -> None:
        """Append one request, stamped with its arrival; the body only for methods with one."""
        # `fault`: what an injected fault did; "before" the API never saw the request,
        # "after" the API handled it and its answer was replaced (a lost response).
        entry = {
            "method": method,
            "path": path,
            "query": query,
            "status_code": status_code,
            "timestamp": (started or now()).isoformat(),
            "fault": fault,
        }
        if method in ("POST", "PUT", "PATCH"):
            entry["body"] = body
        self.entries.append(entry)

    def clear(self) -> None:
        """Forget every recorded request."""
        self.entries.clear()
