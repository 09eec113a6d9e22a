"""Reviews, comments on the diff with their replies, and the conversation's comments, as
people write them (the token says who), each sent as the webhook GitHub sends."""

from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, Query, Request

from emulators.github import hook_shapes as hook_shapes
from emulators.github.routes import github_time, require_token, validation_failed
from emulators.github.shapes import person, thread_html
from emulators.github.store import (
    Json,
    base_url,
    collection,
    find_pull,
    find_repo,
    find_thread,
    request_caller,
)
from emulators.github.webhooks import GitHubWebhooks
from emulators.state import EmulatorState

JsonObject = Annotated[dict[str, Any], Body()]
REVIEW_STATES = {
    "APPROVE": "APPROVED",
    "REQUEST_CHANGES": "CHANGES_REQUESTED",
    "COMMENT": "COMMENTED",
}


def review_comment_json(pr: Json, c: Json, base: str) -> Json:
    """A comment on the diff, in REST shape."""
    api = f"{base}/api/v3/repos/{pr['repo']}/pulls"
    return {
        "url": f"{api}/comments/{c['id']}",
        "pull_request_review_id": c.get("review_id"),
        "id": c["id"],
        "node_id": f"PRRC_{c['id']}",
        "diff_hunk": c.get("diff_hunk", ""),
        "path": c["path"],
        "commit_id": c["commit_id"],
        "original_commit_id": c["commit_id"],
        "user": person(c["user"], base),
        "body": c["body"],
        "created_at": c["created_at"],
        "updated_at": c["created_at"],
        "html_url": f"{base}/{pr['repo']}/pull/{pr['number']}#discussion_r{c['id']}",
        "pull_request_url": f"{api}/{pr['number']}",
        "author_association": c["association"],
        "line": c.get("line"),
        "original_line": c.get("line"),
        "side": "RIGHT",
        "in_reply_to_id": c.get("in_reply_to_id"),
    }


def issue_comment_json(pr: Json, c: Json, base: str) -> Json:
    """A comment on the conversation, in REST shape."""
    return {
        "id": c["id"],
        "node_id": f"IC_{c['id']}",
        "url": f"{base}/api/v3/repos/{pr['repo']}/issues/comments/{c['id']}",
        "html_url": f"{thread_html(pr, base)}#issuecomment-{c['id']}",
        "issue_url": f"{base}/api/v3/repos/{pr['repo']}/issues/{pr['number']}",
        "body": c["body"],
        "user": person(c["user"], base),
        "author_association": c.get("association", "NONE"),
        "created_at": c["created_at"],
        "updated_at": c["created_at"],
    }


def create_reviews_router(state: EmulatorState, hooks: GitHubWebhooks) -> APIRouter:
    """The review routes of one emulator."""
    api = APIRouter(prefix="/api/v3/repos/{owner}/{repo}", dependencies=[Depends(require_token)])

    def send(event: str, pr: Json, request: Request, sender: str, **fields: Any) -> None:
        base = base_url(request)
        r = find_repo(state, *pr["repo"].split("/"))
        payload = {**fields, "pull_request": hook_shapes.simple_pull_request(pr, r, base)}
        payload |= {
            "repository": hook_shapes.repository(r, base), "sender": person(sender, base),
        }  # fmt: skip
        hooks.send(event, payload)

    def new_comment(pr: Json, request: Request, data: Json, review_id: int | None) -> Json:
        login, association = request_caller(state, request)
        if not str(data.get("body") or "").strip():
            raise validation_failed(
                {"resource": "PullRequestReviewComment", "field": "body", "code": "missing_field"}
            )
        comment = {
            "id": state.next_id("github-id", 5000),
            "repo": pr["repo"],
            "number": pr["number"],
            # A comment made alone is, on GitHub, the only comment of a review of its own.
            "review_id": review_id or state.next_id("github-id", 5000),
            "path": data.get("path"),
            "line": data.get("line"),
            "body": data["body"],
            "commit_id": data.get("commit_id") or pr["head_sha"],
            "user": login,
            "association": association,
            "created_at": github_time(),
            "in_reply_to_id": data.get("in_reply_to"),
        }
        collection(state, "review_comments").append(comment)
        return comment

    def comments_of(pr: Json) -> list[Json]:
        return [
            c
            for c in collection(state, "review_comments")
            if c["repo"] == pr["repo"] and c["number"] == pr["number"]
        ]

    @api.post("/pulls/{number}/reviews")
    async def create_review(
        owner: str, repo: str, number: int, request: Request, payload: JsonObject
    ) -> Any:
        pr = find_pull(state, owner, repo, number)
        event = str(payload.get("event") or "COMMENT").upper()
        if event not in REVIEW_STATES:
            raise validation_failed(
                {"resource": "PullRequestReview", "field": "event", "code": "invalid"}
            )
        login, association = request_caller(state, request)
        review = {
            "id": state.next_id("github-id", 5000),
            "repo": pr["repo"],
            "number": number,
            "user": login,
            "association": association,
            "body": payload.get("body") or "",
            "state": REVIEW_STATES[event],
            "commit_id": payload.get("commit_id") or pr["head_sha"],
            "submitted_at": github_time(),
        }
        collection(state, "reviews").append(review)
        inline = [new_comment(pr, request, c, review["id"]) for c in payload.get("comments") or []]
        state.save()
        base = base_url(request)
        body = review_json(pr, review, base)
        for comment in inline:
            send(
                "pull_request_review_comment",
                pr,
                request,
                login,
                action="created",
                comment=hook_shapes.review_comment(review_comment_json(pr, comment, base)),
            )
        pull_url = f"{base}/api/v3/repos/{pr['repo']}/pulls/{pr['number']}"
        send(
            "pull_request_review",
            pr,
            request,
            login,
            action="submitted",
            review=hook_shapes.review(body, pull_url),
        )
        return body

    def review_json(pr: Json, review: Json, base: str) -> Json:
        return {
            "id": review["id"],
            "node_id": f"PRR_{review['id']}",
            "user": person(review["user"], base),
            "body": review["body"],
            "state": review["state"],
            "html_url": f"{base}/{pr['repo']}/pull/{pr['number']}#pullrequestreview-{review['id']}",
            "pull_request_url": f"{base}/api/v3/repos/{pr['repo']}/pulls/{pr['number']}",
            "author_association": review["association"],
            "submitted_at": review["submitted_at"],
            "commit_id": review["commit_id"],
        }

    @api.get("/pulls/{number}/reviews")
    def list_reviews(owner: str, repo: str, number: int, request: Request) -> Any:
        pr = find_pull(state, owner, repo, number)
        reviews = [
            r
            for r in collection(state, "reviews")
            if r["repo"] == pr["repo"] and r["number"] == number
        ]
        return [review_json(pr, r, base_url(request)) for r in reviews]

    @api.get("/pulls/{number}/comments")
    def list_review_comments(owner: str, repo: str, number: int, request: Request) -> Any:
        pr = find_pull(state, owner, repo, number)
        return [review_comment_json(pr, c, base_url(request)) for c in comments_of(pr)]

    @api.post("/pulls/{number}/comments", status_code=201)
    async def create_review_comment(
        owner: str, repo: str, number: int, request: Request, payload: JsonObject
    ) -> Any:
        pr = find_pull(state, owner, repo, number)
        if not payload.get("in_reply_to") and not payload.get("path"):
            raise validation_failed(
                {"resource": "PullRequestReviewComment", "field": "path", "code": "missing_field"}
            )
        return added(pr, request, payload)

    @api.post("/pulls/{number}/comments/{comment_id}/replies", status_code=201)
    async def reply(
        owner: str, repo: str, number: int, comment_id: int, request: Request, payload: JsonObject
    ) -> Any:
        pr = find_pull(state, owner, repo, number)
        parent = next((c for c in comments_of(pr) if c["id"] == comment_id), None)
        if parent is None:
            raise validation_failed(
                {"resource": "PullRequestReviewComment", "field": "in_reply_to", "code": "invalid"}
            )
        top = parent.get("in_reply_to_id") or parent["id"]
        data = {**payload, "in_reply_to": top, "path": parent["path"], "line": parent.get("line")}
        return added(pr, request, data)

    def added(pr: Json, request: Request, data: Json) -> Json:
        comment = new_comment(pr, request, data, None)
        state.save()
        body = review_comment_json(pr, comment, base_url(request))
        send(
            "pull_request_review_comment",
            pr,
            request,
            comment["user"],
            action="created",
            comment=hook_shapes.review_comment(body),
        )
        return body

    @api.get("/issues/{number}/comments")
    def list_issue_comments(
        owner: str,
        repo: str,
        number: int,
        request: Request,
        per_page: int = Query(30, ge=1, le=100),
        page: int = Query(1, ge=1),
    ) -> Any:
        pr = find_thread(state, owner, repo, number)
        shown = pr["comments"][(page - 1) * per_page : page * per_page]
        return [issue_comment_json(pr, c, base_url(request)) for c in shown]

    return api


def announce_issue_comment(
    state: EmulatorState, hooks: GitHubWebhooks, pr: Json, comment: Json, request: Request
) -> None:
    """The issue_comment webhook of a comment on a pull request's conversation."""
    base = base_url(request)
    r = find_repo(state, *pr["repo"].split("/"))
    payload = {
        "action": "created",
        "issue": hook_shapes.issue(pr, base),
        "comment": hook_shapes.issue_comment(issue_comment_json(pr, comment, base)),
    }
    payload |= {
        "repository": hook_shapes.repository(r, base),
        "sender": person(comment["user"], base),
    }
    hooks.send("issue_comment", payload)
