"""The emulators' persistent state, their request log and the faults injected on request."""

import json
import os
import re
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Self

from pydantic import BaseModel, Field

from integrations.adf import markdown_to_adf


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
        issues[issue["key"]] = {
            "id": str(number),
            "created": created,
            "updated": created,
            "issuetype": "Task",
            **issue,
            "description": markdown_to_adf(description) if description else None,
            "comments": [],
        }
    return {
        "users": seed.get("users", []),
        "projects": seed.get("projects", []),
        "issues": issues,
        "repositories": seed.get("repositories", []),
        "pulls": [],
        "discord": {"webhooks": seed.get("discord_webhooks", []), "messages": []},
        "counters": {},
    }


class RequestLog:
    """Every request the emulators answered, in order, kept in memory."""

    def __init__(self) -> None:
        self.entries: list[dict[str, Any]] = []

    def record(
        self, method: str, path: str, query: dict[str, str], status_code: int, body: Any
    ) -> None:
        """Append one request; the body only for methods that carry one."""
        entry = {
            "method": method,
            "path": path,
            "query": query,
            "status_code": status_code,
            "timestamp": now().isoformat(),
        }
        if method in ("POST", "PUT", "PATCH"):
            entry["body"] = body
        self.entries.append(entry)

    def clear(self) -> None:
        """Forget every recorded request."""
        self.entries.clear()


class Fault(BaseModel):
    """An injected failure or delay for requests whose path matches a regular expression."""

    path: str = Field(description="regular expression matched against the whole path")
    method: str | None = None
    status_code: int | None = Field(default=None, description="None: only delay, then answer")
    body: dict[str, Any] | None = None
    headers: dict[str, str] = {}
    delay_seconds: float = 0.0
    times: int | None = Field(default=1, description="requests to affect; None: until cleared")

    def matches(self, method: str, path: str) -> bool:
        """Whether this fault applies to a request."""
        if self.times is not None and self.times <= 0:
            return False
        if self.method and self.method.upper() != method:
            return False
        return re.fullmatch(self.path, path) is not None


class FaultInjector:
    """The faults in force; each match uses up one of its `times`."""

    def __init__(self) -> None:
        self.faults: list[Fault] = []

    def take(self, method: str, path: str) -> Fault | None:
        """The first fault matching a request, counted as used."""
        fault = next((f for f in self.faults if f.matches(method, path)), None)
        if fault and fault.times is not None:
            fault.times -= 1
        return fault
