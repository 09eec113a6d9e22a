"""A ticket's status as the JSON its query answers with, which is what the command line shows.

Over HTTP the answer is shown as it arrives, without building the pydantic models of the status
(workflows/ticket/messages.py): building them takes longer than the rest of `status` together.
The gRPC reads and the tests hand models, written out as the same JSON.
"""

from datetime import datetime
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pydantic import BaseModel

StatusJson = dict[str, Any]


def as_json(value: "BaseModel | StatusJson") -> StatusJson:
    """The status (or a part of it) as its JSON, whichever of the two it came as."""
    return value if isinstance(value, dict) else value.model_dump(mode="json")


def moment(value: str | None) -> datetime | None:
    """A time of the status's JSON (ISO 8601), or None."""
    return None if value is None else datetime.fromisoformat(value)


def result_status(result: StatusJson) -> StatusJson:
    """A completed ticket's status from its result, as `TicketResult.as_status` gives it."""
    if result.get("final_status") is not None:
        return dict(result["final_status"])
    kept = ("key", "status", "plan_version", "branch", "pr_url", "pr_draft", "tests_passed")
    return {name: result.get(name) for name in kept} | {
        "phase": "done",
        "message": result.get("message", ""),
        "usage": result.get("usage") or [],
    }
