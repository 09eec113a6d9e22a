"""GitLab's REST v4 objects built from the emulator's state: users, members, projects, merge
requests, notes, discussions, pipelines and jobs."""

from typing import Any

from emulators.gitlab.store import Json, is_draft

ACCESS_LEVELS = (10, 20, 30, 40, 50)  # guest, reporter, developer, maintainer, owner


def user(u: Json, base: str) -> Json:
    """A user as GitLab nests it (author, merged_by...)."""
    return {
        "id": u["id"], "username": u["username"], "name": u.get("name", u["username"]),
        "state": "active", "locked": False, "avatar_url": None,
        "web_url": f"{base}/{u['username']}",
    }  # fmt: skip


def member(u: Json, access_level: int, base: str) -> Json:
    """A project member (the Project members API's shape)."""
    return user(u, base) | {"access_level": access_level, "expires_at": None}


def project(p: Json, base: str) -> Json:
    """A project."""
    path = p["path_with_namespace"]
    name = path.split("/")[-1]
    return {
        "id": p["id"], "name": name, "path": name, "path_with_namespace": path,
        "name_with_namespace": path.replace("/", " / "),
        "default_branch": p.get("default_branch", "main"), "web_url": f"{base}/{path}",
        "http_url_to_repo": f"{base}/{path}.git",
    }  # fmt: skip


def merge_status(mr: Json) -> str:
    """The `detailed_merge_status` of a merge request."""
    if mr["state"] != "opened":
        return "not_open"
    return "draft_status" if is_draft(mr["title"]) else "mergeable"


def merge_request(p: Json, mr: Json, author: Json, merger: Json | None, base: str) -> Json:
    """A merge request (the Merge requests API's shape)."""
    path, draft = p["path_with_namespace"], is_draft(mr["title"])
    merged_by = user(merger, base) if merger else None
    return {
        "id": mr["id"], "iid": mr["iid"], "project_id": p["id"], "title": mr["title"],
        "description": mr["description"], "state": mr["state"], "draft": draft,
        "work_in_progress": draft, "source_branch": mr["source_branch"],
        "target_branch": mr["target_branch"], "source_project_id": p["id"],
        "target_project_id": p["id"], "author": user(author, base),
        "created_at": mr["created_at"], "updated_at": mr["updated_at"],
        "merged_by": merged_by, "merge_user": merged_by, "merged_at": mr.get("merged_at"),
        "closed_at": mr.get("closed_at"),
        "sha": mr.get("sha"), "merge_commit_sha": mr.get("merge_commit_sha"),
        "squash_commit_sha": None, "merge_status": "can_be_merged",
        "detailed_merge_status": merge_status(mr), "has_conflicts": False,
        "web_url": f"{base}/{path}/-/merge_requests/{mr['iid']}",
        "references": {"short": f"!{mr['iid']}", "full": f"{path}!{mr['iid']}"},
    }  # fmt: skip


def note(p: Json, mr: Json, n: Json, author: Json, base: str) -> Json:
    """A note on a merge request (the Notes API's shape)."""
    shaped = {
        "id": n["id"], "type": n.get("type"), "body": n["body"], "attachment": None,
        "author": user(author, base), "created_at": n["created_at"],
        "updated_at": n.get("updated_at", n["created_at"]), "system": n.get("system", False),
        "noteable_id": mr["id"], "noteable_type": "MergeRequest", "noteable_iid": mr["iid"],
        "project_id": p["id"], "resolvable": n.get("resolvable", False),
        "resolved": n.get("resolved", False), "resolved_by": None, "confidential": False,
        "internal": False,
    }  # fmt: skip
    if n.get("type") == "DiffNote":
        shaped["position"] = n.get("position")
    return shaped


def discussion(discussion_id: str, individual: bool, notes: list[Json]) -> Json:
    """A discussion (the Discussions API's shape)."""
    return {"id": discussion_id, "individual_note": individual, "notes": notes}


def pipeline(p: Json, pl: Json, base: str) -> Json:
    """A pipeline (the Pipelines API's shape)."""
    return {
        "id": pl["id"], "iid": pl["iid"], "project_id": p["id"], "sha": pl["sha"],
        "ref": pl["ref"], "status": pl["status"], "source": pl.get("source", "push"),
        "before_sha": pl["before_sha"], "tag": False, "created_at": pl["created_at"],
        "updated_at": pl["updated_at"], "started_at": pl.get("started_at"),
        "finished_at": pl.get("finished_at"), "duration": pl.get("duration"),
        "web_url": f"{base}/{p['path_with_namespace']}/-/pipelines/{pl['id']}",
    }  # fmt: skip


def job(p: Json, j: Json, pl: Json, commit: Json, runner: Json, base: str) -> Json:
    """A job (the Jobs API's shape); `commit` and `runner` (the user who ran it) as nested."""
    shaped: dict[str, Any] = {
        "id": j["id"], "name": j["name"], "stage": j["stage"], "status": j["status"],
        "allow_failure": False, "created_at": j["created_at"], "started_at": j.get("started_at"),
        "finished_at": j.get("finished_at"), "duration": j.get("duration"),
        "queued_duration": j.get("queued_duration"), "ref": pl["ref"], "tag": False,
        "retried": j.get("retried", False), "coverage": None, "artifacts": [],
        "web_url": f"{base}/{p['path_with_namespace']}/-/jobs/{j['id']}",
        "pipeline": {
            "id": pl["id"], "project_id": p["id"], "sha": pl["sha"], "ref": pl["ref"],
            "status": pl["status"],
        },
        "commit": commit, "user": user(runner, base), "runner": None,
    }  # fmt: skip
    if j["status"] == "failed":
        shaped["failure_reason"] = j.get("failure_reason")
    return shaped


def commit(facts: Json | None, sha: str, p: Json, base: str) -> Json:
    """A commit as jobs nest it, from what git knows of it."""
    facts = facts or {}
    message = facts.get("message", "")
    return {
        "id": sha, "short_id": sha[:8], "title": message.split("\n", 1)[0],
        "message": message, "author_name": facts.get("author_name"),
        "author_email": facts.get("author_email"), "authored_date": facts.get("author_date"),
        "committer_name": facts.get("committer_name"),
        "committer_email": facts.get("committer_email"),
        "committed_date": facts.get("committer_date"), "created_at": facts.get("committer_date"),
        "parent_ids": facts.get("parents", []),
        "web_url": f"{base}/{p['path_with_namespace']}/-/commit/{sha}",
    }  # fmt: skip
