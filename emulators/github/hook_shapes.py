"""GitHub's webhook payload objects, built on the REST shapes of `github_shapes`.

Each carries every property GitHub's webhook schemas require and none they forbid (checked by
`tests/contracts/github/test_emulator_webhooks.py`), so a receiver reading one more field
finds it as GitHub sends it.
"""

from typing import Any

from emulators.github import shapes as shapes

Json = dict[str, Any]
CI_APP = "ticketsmith-ci"
NO_COUNTS = {"commits": 0, "additions": 0, "deletions": 0, "changed_files": 0}
# REST-only properties: the repository of a webhook has no counts of watchers or the network.
_REST_REPOSITORY = {"network_count", "subscribers_count"}
# What a full pull request has beyond the simple one reviews and review comments carry.
_FULL_PULL = {
    "merged", "mergeable", "rebaseable", "mergeable_state", "merged_by", "comments",
    "review_comments", "maintainer_can_modify", "commits", "additions", "deletions",
    "changed_files",
}  # fmt: skip
_REACTIONS = ("+1", "-1", "laugh", "hooray", "confused", "heart", "rocket", "eyes")


person = shapes.person


def repository(r: Json, base: str) -> Json:
    """The repository of every delivery."""
    rest = shapes.repository(r, base)
    hook = {k: v for k, v in rest.items() if k not in _REST_REPOSITORY}
    return hook | {
        "is_template": False, "web_commit_signoff_required": False, "topics": [],
        "custom_properties": {},
    }  # fmt: skip


def reactions(url: str) -> Json:
    """No reactions yet, counted as GitHub counts them."""
    return {"url": f"{url}/reactions", "total_count": 0, **dict.fromkeys(_REACTIONS, 0)}


def app(base: str) -> Json:
    """The emulated CI's GitHub App, which owns its check runs and suites."""
    return {
        "id": 1, "slug": CI_APP, "node_id": "A_1",
        "owner": shapes.user("demo", base, "Organization"),
        "name": "ticketsmith CI", "description": "The emulator's CI", "external_url": base,
        "html_url": f"{base}/apps/{CI_APP}", "created_at": shapes.SEED_TIME,
        "updated_at": shapes.SEED_TIME, "permissions": {"checks": "write", "statuses": "write"},
        "events": ["push"],
    }  # fmt: skip


def pull_request(full: Json, r: Json, base: str) -> Json:
    """The pull request of `pull_request` events: REST's full one, its ends' repository as
    webhooks carry it."""
    repo = repository(r, base)
    return full | {"head": full["head"] | {"repo": repo}, "base": full["base"] | {"repo": repo}}


def simple_pull_request(pr: Json, r: Json, base: str) -> Json:
    """The pull request of review events: no merge state and no counts."""
    full = pull_request(
        shapes.pull_request(pr, shapes.repository(r, base), base, NO_COUNTS), r, base
    )
    return {k: v for k, v in full.items() if k not in _FULL_PULL}


def pull_request_ref(pr: Json, r: Json, base: str) -> Json:
    """A pull request as check runs and suites name it: number, and both ends."""
    api = f"{base}/api/v3/repos/{pr['repo']}"
    repo = {"id": r["id"], "url": api, "name": r["name"]}
    return {
        "url": f"{api}/pulls/{pr['number']}", "id": pr["id"], "number": pr["number"],
        "head": {"ref": pr["head"], "sha": pr["head_sha"], "repo": repo},
        "base": {"ref": pr["base"], "sha": pr["base_sha"], "repo": repo},
    }  # fmt: skip


def issue(pr: Json, base: str) -> Json:
    """An issue, or a pull request seen as the issue its conversation comments are on."""
    api = f"{base}/api/v3/repos/{pr['repo']}"
    url, html = f"{api}/issues/{pr['number']}", shapes.thread_html(pr, base)
    shaped = {
        "url": url, "repository_url": api, "labels_url": f"{url}/labels{{/name}}",
        "comments_url": f"{url}/comments", "events_url": f"{url}/events", "html_url": html,
        "id": pr["id"], "node_id": f"I_{pr['id']}", "number": pr["number"],
        "title": pr["title"], "user": person(pr["user"], base),
        "labels": [shapes.label(n, base, pr["repo"]) for n in pr["labels"]],
        "state": pr["state"], "locked": False, "assignee": None, "assignees": [],
        "milestone": None, "comments": len(pr["comments"]), "created_at": pr["created_at"],
        "updated_at": pr["updated_at"], "closed_at": pr["closed_at"],
        "author_association": pr.get("association", "NONE"), "active_lock_reason": None,
        "body": pr["body"], "reactions": reactions(url), "timeline_url": f"{url}/timeline",
        "performed_via_github_app": None, "state_reason": pr.get("state_reason"),
    }  # fmt: skip
    if "head" not in pr:
        return shaped
    return shaped | {
        "draft": pr["draft"],
        "pull_request": {
            "url": f"{api}/pulls/{pr['number']}", "html_url": html, "diff_url": f"{html}.diff",
            "patch_url": f"{html}.patch", "merged_at": pr.get("merged_at"),
        },
    }  # fmt: skip


def issue_comment(rest: Json) -> Json:
    """A conversation comment as its webhook carries it."""
    return rest | {"performed_via_github_app": None, "reactions": reactions(rest["url"])}


def review(rest: Json, pull_url: str) -> Json:
    """A submitted review as its webhook carries it: the state in lower case, with links."""
    links = {"html": {"href": rest["html_url"]}, "pull_request": {"href": pull_url}}
    return rest | {"state": rest["state"].lower(), "_links": links}


def review_comment(rest: Json) -> Json:
    """A comment on the diff as its webhook carries it (single-line, on the new side)."""
    links = {
        "self": {"href": rest["url"]}, "html": {"href": rest["html_url"]},
        "pull_request": {"href": rest["pull_request_url"]},
    }  # fmt: skip
    hook = {k: v for k, v in rest.items() if not (k == "in_reply_to_id" and v is None)}
    return hook | {
        "_links": links, "reactions": reactions(rest["url"]), "position": rest["line"],
        "original_position": rest["original_line"] or 1, "start_line": None,
        "original_start_line": None, "start_side": None, "subject_type": "line",
    }  # fmt: skip


def committer(facts: Json, who: str) -> Json:
    """A commit's author or committer (`who`), as git recorded them."""
    return {
        "name": facts[f"{who}_name"],
        "email": facts[f"{who}_email"],
        "date": facts[f"{who}_date"],
    }


def status_commit(facts: Json, full: str, base: str) -> Json:
    """The commit a status is on, in REST's commit shape."""
    api, sha = f"{base}/api/v3/repos/{full}", facts["sha"]
    return {
        "sha": sha, "node_id": f"C_{sha}", "url": f"{api}/commits/{sha}",
        "html_url": f"{base}/{full}/commit/{sha}", "comments_url": f"{api}/commits/{sha}/comments",
        "author": None, "committer": None,
        "parents": [
            {"sha": p, "url": f"{api}/commits/{p}", "html_url": f"{base}/{full}/commit/{p}"}
            for p in facts["parents"]
        ],
        "commit": {
            "author": committer(facts, "author"), "committer": committer(facts, "committer"),
            "message": facts["message"], "url": f"{api}/git/commits/{sha}", "comment_count": 0,
            "tree": {"sha": facts["tree"], "url": f"{api}/git/trees/{facts['tree']}"},
            "verification": {"verified": False, "reason": "unsigned", "signature": None,
                             "payload": None},
        },
    }  # fmt: skip


def push_commit(facts: Json, full: str, base: str) -> Json:
    """A commit of a push, with the files it added, removed and modified."""
    return {
        "id": facts["sha"], "tree_id": facts["tree"], "distinct": True,
        "message": facts["message"], "timestamp": facts["committer_date"],
        "url": f"{base}/{full}/commit/{facts['sha']}",
        "author": committer(facts, "author"), "committer": committer(facts, "committer"),
        **{k: facts[k] for k in ("added", "removed", "modified")},
    }  # fmt: skip


def simple_commit(facts: Json, full: str, base: str) -> Json:
    """A check suite's head commit: ids, message, time and people, without its files."""
    commit = push_commit(facts, full, base)
    return {k: commit[k] for k in ("id", "tree_id", "message", "timestamp", "author", "committer")}
