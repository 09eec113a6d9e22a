"""GitHub's REST shapes: users, repositories, pull requests, labels and comments, whole.

Every property GitHub's OpenAPI description requires is present (checked by
`tests/contracts/github`), so a client reading one more field finds it as on GitHub.
"""

import zlib
from typing import Any

SEED_TIME = "2025-01-06T09:00:00Z"
BOT_LOGINS = {"ticketsmith-bot", "ticketsmith-ci"}


def user(login: str, base: str, kind: str = "User") -> dict[str, Any]:
    """A simple user (or bot or organization) with its API and page URLs."""
    api = f"{base}/api/v3/users/{login}"
    uid = zlib.crc32(login.encode()) % 10_000_000
    return {
        "login": login, "id": uid, "node_id": f"U_{uid}", "type": kind, "site_admin": False,
        "avatar_url": f"{base}/avatars/{login}", "gravatar_id": "", "url": api,
        "html_url": f"{base}/{login}", "followers_url": f"{api}/followers",
        "following_url": f"{api}/following{{/other_user}}",
        "gists_url": f"{api}/gists{{/gist_id}}",
        "starred_url": f"{api}/starred{{/owner}}{{/repo}}",
        "subscriptions_url": f"{api}/subscriptions", "organizations_url": f"{api}/orgs",
        "repos_url": f"{api}/repos", "events_url": f"{api}/events{{/privacy}}",
        "received_events_url": f"{api}/received_events",
    }  # fmt: skip


def person(login: str, base: str) -> dict[str, Any]:
    """Whoever acts on the emulator: its own bot and CI are bots, everyone else a user."""
    return user(login, base, "Bot" if login in BOT_LOGINS else "User")


def authenticated_user(login: str, base: str) -> dict[str, Any]:
    """The signed-in user (`GET /user`) with its profile and private counts."""
    profile = {
        "name": login, "company": None, "blog": "", "location": None, "email": None,
        "hireable": None, "bio": None, "public_repos": 0, "public_gists": 0, "followers": 0,
        "following": 0, "created_at": SEED_TIME, "updated_at": SEED_TIME, "private_gists": 0,
        "total_private_repos": 0, "owned_private_repos": 0, "disk_usage": 0,
        "collaborators": 0, "two_factor_authentication": False,
    }  # fmt: skip
    return {**user(login, base), **profile}


# Repository URL templates, named as GitHub names them (`{name}_url`).
_REPO_URLS = {
    "archive": "/{archive_format}{/ref}", "assignees": "/assignees{/user}",
    "blobs": "/git/blobs{/sha}", "branches": "/branches{/branch}",
    "collaborators": "/collaborators{/collaborator}", "comments": "/comments{/number}",
    "commits": "/commits{/sha}", "compare": "/compare/{base}...{head}",
    "contents": "/contents/{+path}", "contributors": "/contributors",
    "deployments": "/deployments", "downloads": "/downloads", "events": "/events",
    "forks": "/forks", "git_commits": "/git/commits{/sha}", "git_refs": "/git/refs{/sha}",
    "git_tags": "/git/tags{/sha}", "hooks": "/hooks", "issue_comment": "/issues/comments{/number}",
    "issue_events": "/issues/events{/number}", "issues": "/issues{/number}",
    "keys": "/keys{/key_id}", "labels": "/labels{/name}", "languages": "/languages",
    "merges": "/merges", "milestones": "/milestones{/number}",
    "notifications": "/notifications{?since,all,participating}", "pulls": "/pulls{/number}",
    "releases": "/releases{/id}", "stargazers": "/stargazers", "statuses": "/statuses/{sha}",
    "subscribers": "/subscribers", "subscription": "/subscription", "tags": "/tags",
    "teams": "/teams", "trees": "/git/trees{/sha}",
}  # fmt: skip


def minimal_repository(r: dict[str, Any], base: str) -> dict[str, Any]:
    """A repository as workflow runs name it: ids, owner and every URL template, no more."""
    full = f"{r['owner']}/{r['name']}"
    api = f"{base}/api/v3/repos/{full}"
    return {
        "id": r["id"], "node_id": f"R_{r['id']}", "name": r["name"], "full_name": full,
        "private": r.get("private", False), "owner": user(r["owner"], base, "Organization"),
        "html_url": f"{base}/{full}", "description": r.get("description"), "fork": False,
        "url": api, **{f"{name}_url": api + path for name, path in _REPO_URLS.items()},
    }  # fmt: skip


def repository(r: dict[str, Any], base: str) -> dict[str, Any]:
    """A full repository: its owner, counts, flags and every URL template."""
    full = f"{r['owner']}/{r['name']}"
    host = base.split("://", 1)[-1]
    return minimal_repository(r, base) | {
        "git_url": f"git://{host}/{full}.git", "ssh_url": f"git@{host}:{full}.git",
        "clone_url": f"{base}/{full}.git", "svn_url": f"{base}/{full}", "mirror_url": None,
        "homepage": None, "language": None, "license": None, "size": 0,
        "forks": 0, "forks_count": 0, "stargazers_count": 0, "watchers": 0,
        "watchers_count": 0, "open_issues": 0, "open_issues_count": 0, "network_count": 0,
        "subscribers_count": 0, "default_branch": r["default_branch"],
        "has_issues": True, "has_projects": False, "has_wiki": False, "has_pages": False,
        "has_downloads": False, "has_discussions": False, "archived": False, "disabled": False,
        "visibility": "private" if r.get("private") else "public",
        "pushed_at": SEED_TIME, "created_at": SEED_TIME, "updated_at": SEED_TIME,
        "permissions": {
            "admin": False, "maintain": False, "push": True, "triage": True, "pull": True,
        },
    }  # fmt: skip


def label(name: str, base: str, full_name: str) -> dict[str, Any]:
    """A label of a repository."""
    lid = zlib.crc32(f"{full_name}:{name}".encode()) % 10_000_000
    return {
        "id": lid, "node_id": f"LA_{lid}", "url": f"{base}/api/v3/repos/{full_name}/labels/{name}",
        "name": name, "description": None, "color": "ededed", "default": False,
    }  # fmt: skip


def thread_html(thread: dict[str, Any], base: str) -> str:
    """The page of a pull request or an issue."""
    kind = "pull" if "head" in thread else "issues"
    return f"{base}/{thread['repo']}/{kind}/{thread['number']}"


def issue_comment(pr: dict[str, Any], c: dict[str, Any], base: str) -> dict[str, Any]:
    """A comment on a pull request's or an issue's conversation."""
    api = f"{base}/api/v3/repos/{pr['repo']}"
    return {
        "id": c["id"], "node_id": f"IC_{c['id']}", "url": f"{api}/issues/comments/{c['id']}",
        "html_url": f"{thread_html(pr, base)}#issuecomment-{c['id']}",
        "issue_url": f"{api}/issues/{pr['number']}", "body": c["body"],
        "user": person(c["user"], base), "created_at": c["created_at"],
        "updated_at": c["created_at"], "author_association": c.get("association", "NONE"),
    }  # fmt: skip


def pull_request(
    pr: dict[str, Any], repo: dict[str, Any], base: str, stats: dict[str, int]
) -> dict[str, Any]:
    """A pull request with its branches, links and counts (`stats`: commits and line counts)."""
    api = f"{base}/api/v3/repos/{pr['repo']}"
    url, html_url = f"{api}/pulls/{pr['number']}", f"{base}/{pr['repo']}/pull/{pr['number']}"
    owner = repo["owner"]["login"]

    def ref(branch: str, sha: str) -> dict[str, Any]:
        return {"label": f"{owner}:{branch}", "ref": branch, "sha": sha, "repo": repo,
                "user": repo["owner"]}  # fmt: skip

    links = {
        "self": url, "html": html_url, "issue": f"{api}/issues/{pr['number']}",
        "comments": f"{api}/issues/{pr['number']}/comments",
        "review_comments": f"{url}/comments", "review_comment": f"{api}/pulls/comments{{/number}}",
        "commits": f"{url}/commits", "statuses": f"{api}/statuses/{pr['head_sha']}",
    }  # fmt: skip
    return {
        **{k: pr[k] for k in ("id", "number", "state", "title", "body", "draft")},
        **{k: pr[k] for k in ("created_at", "updated_at", "closed_at")},
        "node_id": f"PR_{pr['id']}", "url": url, "html_url": html_url,
        "diff_url": f"{html_url}.diff", "patch_url": f"{html_url}.patch",
        "issue_url": links["issue"], "commits_url": links["commits"],
        "review_comments_url": links["review_comments"],
        "review_comment_url": links["review_comment"], "comments_url": links["comments"],
        "statuses_url": links["statuses"], "_links": {k: {"href": v} for k, v in links.items()},
        "user": user(pr["user"], base, "Bot"),
        "labels": [label(name, base, pr["repo"]) for name in pr["labels"]],
        "head": ref(pr["head"], pr["head_sha"]), "base": ref(pr["base"], pr["base_sha"]),
        "assignee": None, "assignees": [], "requested_reviewers": [], "requested_teams": [],
        "milestone": None, "locked": False, "active_lock_reason": None,
        "author_association": "NONE", "auto_merge": None,
        "merged": False, "merged_at": None, "merge_commit_sha": None, "merged_by": None,
        "mergeable": None, "mergeable_state": "unknown", "rebaseable": None,
        "maintainer_can_modify": False, "comments": len(pr["comments"]), "review_comments": 0,
        "commits": stats["commits"], "additions": stats["additions"],
        "deletions": stats["deletions"], "changed_files": stats["changed_files"],
    }  # fmt: skip
