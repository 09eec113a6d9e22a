"""GitHub Issues as a tracker: the start label or a mention starts a ticket, comments on the
issue answer, approve, reject, budget, steer or stop it, as Jira comments do.

An issue of a project tracked on GitHub (`tracker = "github"`) is the ticket `KEY-n`, `n`
being the issue's number. Signatures, delivery dedup and the bot's own events are handled by
the GitHub route before these run; payload text stays data.
"""

import logging
from typing import Any

from fastapi.responses import JSONResponse
from temporalio.client import Client, WorkflowExecutionStatus
from temporalio.service import RPCError, RPCStatusCode

from config import WebhookAppSettings
from tickets.launch import LaunchError, start_ticket, ticket_input, workflow_id
from tickets.projects import ProjectConfig, ProjectConfigError, load_projects, project_for_issues
from tickets.routing import TicketFacts
from webhooks.github_events import mention_pattern
from webhooks.jira_events import CommentEvent
from webhooks.responses import error, ignored
from webhooks.tracker_comments import PHASE, deliver_comment
from workflows.ticket.messages import Phase

log = logging.getLogger("ticketsmith.webhooks.github")
# The author associations of the repository's own people (GitHub's `author_association`).
TRUSTED = {"OWNER", "MEMBER", "COLLABORATOR"}
UNTRACKED = {
    "issue_comment": "a comment on an issue, not on a pull request",
    "issues": "an issue event",
}


def untracked(repository: str) -> str:
    """Why an issue is no ticket: its repository's issues are no project's tracker."""
    return f'no project tracks the issues of {repository} (tracker = "github")'


def may_steer(
    comment: dict[str, Any], login: str, project: ProjectConfig, reporter: str = ""
) -> bool:
    """Whether a comment's author may answer, approve or steer a ticket (the approval rules
    decide what an approval counts for): the repository's owners, members and collaborators,
    the logins the project allows, and the issue's reporter (on a public repository anyone
    else can comment)."""
    if str(comment.get("author_association") or "").upper() in TRUSTED:
        return True
    allowed = {x.casefold() for x in [*project.review_allow, *project.approvers, reporter]}
    return login.casefold() in allowed - {""}


def is_issue_event(name: str, payload: dict[str, Any]) -> bool:
    """An `issues` or `issue_comment` delivery about an issue, not a pull request."""
    issue = payload.get("issue")
    return (
        name in ("issues", "issue_comment")
        and isinstance(issue, dict)
        and not issue.get("pull_request")
    )


class IssueEvents:
    """What the GitHub route does with deliveries about issues."""

    def __init__(self, settings: WebhookAppSettings, unsigned: bool) -> None:
        self._settings = settings
        self._unsigned = unsigned

    async def handle(
        self, temporal: Client, name: str, payload: dict[str, Any], delivery: str | None
    ) -> JSONResponse:
        """Start, signal or ignore, saying why."""
        repository = str((payload.get("repository") or {}).get("full_name") or "")
        if name == "issue_comment" and payload.get("action") != "created":
            return ignored(f"issue_comment {payload.get('action')!r} is not a new comment")
        try:
            project = project_for_issues(repository, load_projects(self._settings.projects_file))
        except ProjectConfigError as err:
            return ignored(f"{UNTRACKED[name]}; {untracked(repository)}: {err}", event=name)
        if project is None:
            return ignored(f"{UNTRACKED[name]}; {untracked(repository)}", event=name)
        issue = payload["issue"]
        number = issue.get("number")
        if not isinstance(number, int) or isinstance(number, bool):
            return error(400, f"{name} payload is not shaped like GitHub's: missing issue.number")
        key = f"{project.jira_project}-{number}"
        if name == "issues":
            return await self._issue_changed(temporal, payload, project, key)
        return await self._comment(temporal, payload, project, key, f"{repository}#{number}")

    async def _issue_changed(
        self, temporal: Client, payload: dict[str, Any], project: ProjectConfig, key: str
    ) -> JSONResponse:
        action = payload.get("action")
        if action == "closed":
            return await self._closed(temporal, key)
        if action != "labeled":
            return ignored(f"issues {action!r} is not one ticketsmith acts on", event="issues")
        label = str((payload.get("label") or {}).get("name") or "")
        wanted = self._settings.github_start_label
        if not wanted or label.casefold() != wanted.casefold():
            return ignored(f"the label {wanted!r} was not added", event="issues")
        return await self._start(temporal, payload, key)

    async def _closed(self, temporal: Client, key: str) -> JSONResponse:
        """An issue closed before its ticket reached review: the work is not wanted, so the
        ticket is cancelled, as `starter.py cancel` does; in review it ends with its pull
        request (a merge closes the issue itself)."""
        handle = temporal.get_workflow_handle(workflow_id(key))
        try:
            described = await handle.describe()
        except RPCError as err:
            if err.status == RPCStatusCode.NOT_FOUND:
                return ignored(f"{key} closed: no ticket works on it", event="issues")
            raise
        if described.status != WorkflowExecutionStatus.RUNNING:
            state = described.status.name.lower() if described.status else "closed"
            return ignored(f"{key} closed: its ticket is {state}", event="issues")
        if described.typed_search_attributes.get(PHASE) in (Phase.REVIEW, Phase.DONE):
            return ignored(f"{key} closed: a ticket in review ends with its pull request")
        await handle.cancel()
        body = {"status": "accepted", "workflow_id": handle.id, "cancelled": True}
        return JSONResponse(body, status_code=202)

    async def _comment(
        self,
        temporal: Client,
        payload: dict[str, Any],
        project: ProjectConfig,
        key: str,
        where: str,
    ) -> JSONResponse:
        raw = payload.get("comment")
        if not isinstance(raw, dict) or not isinstance(raw.get("body"), str):
            return error(400, "issue_comment payload is not shaped like GitHub's: comment.body")
        login = str((raw.get("user") or {}).get("login") or "unknown")
        mention = mention_pattern(self._settings.github_bot_login)
        text = raw["body"]
        comment = CommentEvent(
            issue_key=key,
            comment_id=str(raw.get("id") or ""),
            text=mention.sub("", text, count=1).strip() if mention.match(text.lstrip()) else text,
            author_ids=[login],
            author_name=login,
        )

        def not_a_ticket(k: str) -> JSONResponse:
            log.info("comment on %s, which is not a ticket (%s)", where, k)
            return ignored(f"{where} is not a ticket: add the label or mention the bot to start it")

        reporter = (payload["issue"].get("user") or {}).get("login")
        if not may_steer(raw, login, project, reporter if isinstance(reporter, str) else ""):
            repository = where.split("#", 1)[0]
            log.info("comment on %s by %s, who may not steer its ticket", where, login)
            return ignored(
                f"{login} is not an owner, member or collaborator of {repository} (nor on the"
                f" project's review_allow or approvers): their comment does not answer, approve"
                f" or steer {key}"
            )
        if mention.search(text):
            started = await self._start(temporal, payload, key, attach_only=True)
            if started is not None:
                return started
        input_key = f"github-comment-{comment.comment_id}" if comment.comment_id else None
        return await deliver_comment(temporal, comment, input_key, self._unsigned, not_a_ticket)

    async def _start(
        self, temporal: Client, payload: dict[str, Any], key: str, attach_only: bool = False
    ) -> Any:
        """Start the issue's ticket; with `attach_only`, None when it runs already."""
        issue = payload["issue"]
        labels = [str(x.get("name")) for x in issue.get("labels") or [] if isinstance(x, dict)]
        try:
            inp = ticket_input(key, self._settings, facts=TicketFacts(labels=labels))
            inp.unsigned_start = self._unsigned
            outcome = await start_ticket(
                temporal, self._settings, inp, str(issue.get("title") or key)
            )
        except LaunchError as err:
            return None if attach_only else ignored(str(err))
        if attach_only and outcome.attached:
            return None
        body = {"status": "accepted", "workflow_id": outcome.workflow_id}
        return JSONResponse(body | {"started": not outcome.attached}, status_code=202)
