"""What a ticket says and writes: tracker comments, transitions, Discord notices, commits."""

from typing import Any

from temporalio import workflow

with workflow.unsafe.imports_passed_through():
    from activities.discord import DiscordActivities
    from activities.messages import (
        CommitFilesInput,
        CommitFilesResult,
        DiscordNoticeInput,
        PostCommentInput,
        RepoRef,
        SecretFinding,
        TransitionInput,
    )
    from activities.repo import RepoActivities
    from activities.tracker import TrackerActivities
    from workflows.policies import GIT_RETRY, GIT_TIMEOUT, HTTP_RETRY, HTTP_TIMEOUT
    from workflows.ticket.messages import FileChange


class Outbox:
    """Side effects of one ticket run, each an idempotent activity."""

    def __init__(self, key: str, jira_project: str, tracker: str = "Jira") -> None:
        self.key = key
        self.jira_project = jira_project
        self.tracker = tracker

    async def comment(self, step: str, body: str) -> None:
        """Post a comment on the ticket once per run and step (the marker makes retries land
        once)."""
        info = workflow.info()
        marker = f"{info.workflow_id}/{info.run_id}/{step}"
        await self._call(
            TrackerActivities.post_comment,
            PostCommentInput(key=self.key, body=body, marker=marker),
            f"Comment on {self.tracker}: {step}",
        )

    async def transition(self, status: str, done: bool = False) -> None:
        """Move the ticket's issue (`done`: the ticket's work is done, so it closes)."""
        await self._call(
            TrackerActivities.transition_issue,
            TransitionInput(key=self.key, status=status, done=done),
            f"Move {self.key} to {status}",
        )

    async def notify(self, content: str) -> None:
        """Tell the project's Discord channel (nothing when none is configured)."""
        await self._call(
            DiscordActivities.notify_discord,
            DiscordNoticeInput(jira_project=self.jira_project, content=content),
            "Notify Discord",
        )

    async def _call(self, activity: Any, arg: Any, summary: str) -> None:
        """One HTTP side effect, with its timeout, retries and Web UI summary."""
        await workflow.execute_activity_method(
            activity,
            arg,
            start_to_close_timeout=HTTP_TIMEOUT,
            retry_policy=HTTP_RETRY,
            summary=summary,
        )

    async def commit(
        self, repo: RepoRef, files: list[FileChange], message: str,
        approved: list[SecretFinding] | None = None,
    ) -> str:  # fmt: skip
        """Commit files to the ticket branch and push; returns the branch head. The push lets
        through what an approver `approved` of the credential scan's findings."""
        result: CommitFilesResult = await workflow.execute_activity_method(
            RepoActivities.commit_files,
            CommitFilesInput(
                repo=repo, files=files, message=message, approved_secrets=approved or []
            ),
            start_to_close_timeout=GIT_TIMEOUT,
            retry_policy=GIT_RETRY,
            summary=message,
        )
        return result.sha
