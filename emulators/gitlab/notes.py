"""A merge request's notes and discussions (the Notes and Discussions APIs), each note authored
by the caller and sent as a Note Hook."""

import secrets
from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, Request

from emulators.gitlab import shapes
from emulators.gitlab.events import GitLabEvents
from emulators.gitlab.routes import require_token
from emulators.gitlab.store import (
    DEFAULT_PER_PAGE,
    Json,
    base_of,
    bot,
    caller,
    find_mr,
    find_project,
    gitlab_error,
    gitlab_time,
    owned_list,
    paged,
    user_by_id,
)
from emulators.state import EmulatorState

JsonObject = Annotated[dict[str, Any], Body()]
POSITION_FIELDS = ("base_sha", "start_sha", "head_sha", "position_type", "old_path", "new_path",
                   "old_line", "new_line", "line_range")  # fmt: skip
REQUIRED_POSITION = ("base_sha", "start_sha", "head_sha")


def text_position(raw: Any) -> Json:
    """A diff position as GitLab keeps it, or its 400 for one it cannot place."""
    if not isinstance(raw, dict) or raw.get("position_type", "text") != "text":
        raise gitlab_error(400, "400 Bad request - position is invalid")
    missing = [f for f in REQUIRED_POSITION if not raw.get(f)]
    if missing or not (raw.get("new_path") or raw.get("old_path")):
        raise gitlab_error(400, f"400 Bad request - position {(missing or ['path'])[0]} is missing")
    position: Json = {f: raw.get(f) for f in POSITION_FIELDS} | {"position_type": "text"}
    position["old_path"] = position["old_path"] or position["new_path"]
    position["new_path"] = position["new_path"] or position["old_path"]
    return position


def body_of(payload: Json) -> str:
    """A note's body, or GitLab's 400 for none."""
    body = payload.get("body")
    if not isinstance(body, str) or not body.strip():
        raise gitlab_error(400, "400 Bad request - body is missing")
    return body


def create_notes_router(state: EmulatorState, events: GitLabEvents) -> APIRouter:
    """`.../merge_requests/:iid/notes` and `.../discussions`."""
    api = APIRouter(
        prefix="/api/v4/projects/{project_id:path}/merge_requests/{iid}",
        dependencies=[Depends(require_token)], tags=["gitlab"],
    )  # fmt: skip

    def note_json(p: Json, mr: Json, n: Json, base: str) -> Json:
        author = user_by_id(state, n.get("author_id", 0)) or bot(state)
        return shapes.note(p, mr, n, author, base)

    def discussion_json(p: Json, mr: Json, d: Json, base: str) -> Json:
        thread = [n for n in mr["notes"] if n.get("discussion_id") == d["id"]]
        notes = [note_json(p, mr, n, base) for n in thread]
        return shapes.discussion(d["id"], d["individual_note"], notes)

    async def add(
        p: Json, mr: Json, request: Request, body: str, discussion: Json,
        kind: str | None, position: Json | None = None,
    ) -> Json:  # fmt: skip
        stamp, author = gitlab_time(), caller(state, request)
        note = {
            "id": state.next_id("gitlab-note", 30001), "type": kind, "body": body,
            "author_id": author["id"], "created_at": stamp, "updated_at": stamp,
            "system": False, "discussion_id": discussion["id"], "position": position,
            "resolvable": kind is not None, "resolved": False,
        }  # fmt: skip
        mr["notes"].append(note)
        state.save()
        await events.note(p, mr, note, author, base_of(request))
        return note

    def new_discussion(mr: Json, individual: bool) -> Json:
        discussion = {"id": secrets.token_hex(20), "individual_note": individual}
        owned_list(mr, "discussions").append(discussion)
        return discussion

    @api.get("/notes")
    def list_notes(
        project_id: str, iid: int, request: Request, sort: str = "desc",
        order_by: str = "created_at", page: int = 1, per_page: int = DEFAULT_PER_PAGE,
    ) -> Any:  # fmt: skip
        p = find_project(state, project_id)
        mr = find_mr(p, iid)
        if sort not in ("asc", "desc") or order_by not in ("created_at", "updated_at"):
            raise gitlab_error(400, "400 Bad request - sort, order_by does not have a valid value")
        ordered = sorted(mr["notes"], key=lambda n: (n[order_by], n["id"]), reverse=sort == "desc")
        return paged([note_json(p, mr, n, base_of(request)) for n in ordered], page, per_page)

    @api.post("/notes", status_code=201)
    async def add_note(project_id: str, iid: int, request: Request, payload: JsonObject) -> Any:
        p = find_project(state, project_id)
        mr, body = find_mr(p, iid), body_of(payload)
        note = await add(p, mr, request, body, new_discussion(mr, True), None)
        return note_json(p, mr, note, base_of(request))

    @api.get("/discussions")
    def list_discussions(
        project_id: str, iid: int, request: Request, page: int = 1,
        per_page: int = DEFAULT_PER_PAGE,
    ) -> Any:  # fmt: skip
        p = find_project(state, project_id)
        mr = find_mr(p, iid)
        found = [discussion_json(p, mr, d, base_of(request)) for d in owned_list(mr, "discussions")]
        return paged(found, page, per_page)

    @api.post("/discussions", status_code=201)
    async def start_discussion(
        project_id: str, iid: int, request: Request, payload: JsonObject
    ) -> Any:
        p = find_project(state, project_id)
        mr, body = find_mr(p, iid), body_of(payload)
        position = text_position(payload["position"]) if payload.get("position") else None
        kind = "DiffNote" if position else "DiscussionNote"
        discussion = new_discussion(mr, False)
        await add(p, mr, request, body, discussion, kind, position)
        return discussion_json(p, mr, discussion, base_of(request))

    @api.post("/discussions/{discussion_id}/notes", status_code=201)
    async def reply(
        project_id: str, iid: int, discussion_id: str, request: Request, payload: JsonObject
    ) -> Any:
        p = find_project(state, project_id)
        mr, body = find_mr(p, iid), body_of(payload)
        discussion = next((d for d in owned_list(mr, "discussions") if d["id"] == discussion_id),
                          None)  # fmt: skip
        if discussion is None:
            raise gitlab_error(404, "404 Discussion Not Found")
        thread = [n for n in mr["notes"] if n["discussion_id"] == discussion_id]
        if discussion["individual_note"]:  # a reply makes the note a thread, as GitLab does
            discussion["individual_note"] = False
            for n in thread:
                n.update(type="DiscussionNote", resolvable=True)
        first = thread[0]
        # As GitLab's reply attributes: a reply takes its thread's type (and a diff's position).
        note = await add(p, mr, request, body, discussion, first["type"], first.get("position"))
        return note_json(p, mr, note, base_of(request))

    return api
