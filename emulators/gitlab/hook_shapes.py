"""GitLab's webhook payloads ("Webhook events"): Merge Request, Note, Pipeline and Push Hooks,
built from the emulator's state and what git knows of the commits."""

from typing import Any

from emulators.gitlab.shapes import merge_status
from emulators.gitlab.store import Json, is_draft

DETAILED_STATUS = {"success": "passed"}


def hook_time(stamp: str | None) -> str | None:
    """A REST timestamp as Note and Pipeline Hooks write theirs (`2024-01-01 09:00:00 UTC`)."""
    return f"{stamp[:10]} {stamp[11:19]} UTC" if stamp else None


def mr_time(stamp: str | None) -> str | None:
    """A REST timestamp as Merge Request Hooks write theirs (`2024-01-01T09:00:00Z`)."""
    return f"{stamp[:19]}Z" if stamp else None


def user(u: Json, base: str) -> Json:
    """The `user` of a hook: who caused the event."""
    return {
        "id": u["id"], "name": u.get("name", u["username"]), "username": u["username"],
        "avatar_url": None, "email": "[REDACTED]",
    }  # fmt: skip


def project(p: Json, base: str) -> Json:
    """The `project` of every hook."""
    path = p["path_with_namespace"]
    namespace, _, name = path.rpartition("/")
    web_url, host = f"{base}/{path}", base.split("://")[-1]
    return {
        "id": p["id"], "name": name, "description": p.get("description", ""),
        "web_url": web_url, "avatar_url": None, "git_ssh_url": f"git@{host}:{path}.git",
        "git_http_url": f"{web_url}.git", "namespace": namespace, "visibility_level": 20,
        "path_with_namespace": path, "default_branch": p.get("default_branch", "main"),
        "ci_config_path": None, "homepage": web_url, "url": f"{web_url}.git",
        "ssh_url": f"git@{host}:{path}.git", "http_url": f"{web_url}.git",
    }  # fmt: skip


def repository(p: Json, base: str) -> Json:
    """The `repository` older receivers read."""
    web_url = f"{base}/{p['path_with_namespace']}"
    return {"name": p["path_with_namespace"].split("/")[-1], "url": f"{web_url}.git",
            "description": p.get("description", ""), "homepage": web_url}  # fmt: skip


def commit(facts: Json | None, sha: str, p: Json, base: str) -> Json:
    """A commit as hooks carry it (`last_commit`, a pipeline's `commit`, a push's commits)."""
    facts = facts or {}
    message = facts.get("message", "")
    shaped = {
        "id": sha, "message": message, "title": message.split("\n", 1)[0],
        "timestamp": facts.get("author_date"),
        "url": f"{base}/{p['path_with_namespace']}/-/commit/{sha}",
        "author": {"name": facts.get("author_name"), "email": facts.get("author_email")},
    }  # fmt: skip
    return shaped | {k: facts[k] for k in ("added", "modified", "removed") if k in facts}


def merge_request_attributes(p: Json, mr: Json, author: Json, last_commit: Json, base: str) -> Json:
    """A merge request as Note Hooks nest it and Merge Request Hooks describe it."""
    draft, url = is_draft(mr["title"]), f"{base}/{p['path_with_namespace']}"
    return {
        "id": mr["id"], "iid": mr["iid"], "title": mr["title"],
        "description": mr["description"], "state": mr["state"],
        "source_branch": mr["source_branch"], "target_branch": mr["target_branch"],
        "source_project_id": p["id"], "target_project_id": p["id"], "author_id": author["id"],
        "draft": draft, "work_in_progress": draft, "merge_status": "can_be_merged",
        "detailed_merge_status": merge_status(mr), "created_at": mr_time(mr["created_at"]),
        "updated_at": mr_time(mr["updated_at"]), "merge_commit_sha": mr.get("merge_commit_sha"),
        "url": f"{url}/-/merge_requests/{mr['iid']}", "source": project(p, base),
        "target": project(p, base), "last_commit": last_commit, "labels": [],
        "assignee_ids": [], "reviewer_ids": [], "blocking_discussions_resolved": True,
    }  # fmt: skip


def merge_request_hook(
    p: Json, mr: Json, actor: Json, author: Json, action: str, last_commit: Json, base: str,
    changes: Json | None = None, oldrev: str | None = None,
) -> Json:  # fmt: skip
    """A Merge Request Hook; `oldrev` only on an update that moved the source branch."""
    attributes = merge_request_attributes(p, mr, author, last_commit, base) | {"action": action}
    if oldrev is not None:
        attributes["oldrev"] = oldrev
    return {
        "object_kind": "merge_request", "event_type": "merge_request",
        "user": user(actor, base), "project": project(p, base),
        "repository": repository(p, base), "object_attributes": attributes, "labels": [],
        "changes": changes or {}, "assignees": [], "reviewers": [],
    }  # fmt: skip


def note_hook(
    p: Json, mr: Json, note: Json, actor: Json, author: Json, last_commit: Json, base: str
) -> Json:
    """A Note Hook for a note on a merge request."""
    url = f"{base}/{p['path_with_namespace']}/-/merge_requests/{mr['iid']}#note_{note['id']}"
    attributes = {
        "id": note["id"], "note": note["body"], "noteable_type": "MergeRequest",
        "noteable_id": mr["id"], "author_id": actor["id"], "project_id": p["id"],
        "type": note.get("type"), "system": note.get("system", False),
        "position": note.get("position"), "original_position": note.get("position"),
        "discussion_id": note["discussion_id"], "line_code": None, "commit_id": None,
        "attachment": None, "st_diff": None, "action": "create", "url": url,
        "created_at": hook_time(note["created_at"]), "updated_at": hook_time(note["updated_at"]),
    }  # fmt: skip
    return {
        "object_kind": "note", "event_type": "note", "user": user(actor, base),
        "project_id": p["id"], "project": project(p, base), "repository": repository(p, base),
        "object_attributes": attributes,
        "merge_request": merge_request_attributes(p, mr, author, last_commit, base),
    }  # fmt: skip


def build(j: Json, runner: Json, base: str) -> Json:
    """A job as Pipeline Hooks list it in `builds`."""
    return {
        "id": j["id"], "stage": j["stage"], "name": j["name"], "status": j["status"],
        "created_at": hook_time(j["created_at"]), "started_at": hook_time(j.get("started_at")),
        "finished_at": hook_time(j.get("finished_at")), "duration": j.get("duration"),
        "queued_duration": j.get("queued_duration"), "failure_reason": j.get("failure_reason"),
        "when": "on_success", "manual": False, "allow_failure": False,
        "user": user(runner, base), "runner": None, "environment": None,
        "artifacts_file": {"filename": None, "size": None},
    }  # fmt: skip


def pipeline_hook(
    p: Json, pl: Json, builds: list[Json], actor: Json, mr: Json | None, head: Json, base: str
) -> Json:
    """A Pipeline Hook; `mr` the open merge request whose source branch is the ref, if any."""
    web_url = f"{base}/{p['path_with_namespace']}"
    detailed = DETAILED_STATUS.get(pl["status"], pl["status"])
    attributes = {
        "id": pl["id"], "iid": pl["iid"], "name": None, "ref": pl["ref"], "tag": False,
        "sha": pl["sha"], "before_sha": pl["before_sha"], "source": pl["source"],
        "status": pl["status"], "detailed_status": detailed, "stages": ["test"],
        "created_at": hook_time(pl["created_at"]),
        "finished_at": hook_time(pl.get("finished_at")), "duration": pl.get("duration"),
        "queued_duration": None, "variables": [], "url": f"{web_url}/-/pipelines/{pl['id']}",
    }  # fmt: skip
    request = mr and {
        "id": mr["id"], "iid": mr["iid"], "title": mr["title"],
        "source_branch": mr["source_branch"], "source_project_id": p["id"],
        "target_branch": mr["target_branch"], "target_project_id": p["id"],
        "state": mr["state"], "merge_status": "can_be_merged",
        "detailed_merge_status": merge_status(mr),
        "url": f"{web_url}/-/merge_requests/{mr['iid']}",
    }  # fmt: skip
    return {
        "object_kind": "pipeline", "object_attributes": attributes, "merge_request": request,
        "user": user(actor, base), "project": project(p, base), "commit": head,
        "builds": builds,
    }  # fmt: skip


def push_hook(
    p: Json, ref: str, before: str, after: str, pusher: Json, commits: list[Json], total: int,
    base: str,
) -> Json:  # fmt: skip
    """A Push Hook for one moved branch."""
    extra: dict[str, Any] = {"user_email": "[REDACTED]", "user_avatar": None}
    return {
        "object_kind": "push", "event_name": "push", "before": before, "after": after,
        "ref": ref, "ref_protected": ref == f"refs/heads/{p.get('default_branch', 'main')}",
        "checkout_sha": after, "message": None, "user_id": pusher["id"],
        "user_name": pusher.get("name", pusher["username"]),
        "user_username": pusher["username"], **extra, "project_id": p["id"],
        "project": project(p, base), "commits": commits, "total_commits_count": total,
        "push_options": {}, "repository": repository(p, base),
    }  # fmt: skip
