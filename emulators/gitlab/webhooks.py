"""GitLab webhooks sent by the emulator: the secret token verbatim in X-Gitlab-Token, each
delivery's X-Gitlab-Event-UUID and Idempotency-Key kept on retries and redelivery, retried in
the background; admin routes to list and redeliver them."""

import uuid
from typing import Any

from fastapi import APIRouter

from emulators.github.webhooks import create_deliveries_router
from emulators.jira.webhooks import JiraWebhooks

USER_AGENT = "GitLab/17.0.0"


class GitLabWebhooks(JiraWebhooks):
    """Sends each GitLab event to one URL (one project hook) and keeps a log of the deliveries."""

    hook_uuid = str(uuid.uuid5(uuid.NAMESPACE_URL, "ticketsmith-emulator/gitlab-hook"))

    def send(self, event: str, payload: dict[str, Any], instance: str) -> dict[str, Any] | None:
        """Queue an `event` (`Note Hook`...) from the instance at `instance`; returns its log
        entry (None when no URL is set)."""
        return self.queue(event=event, instance=instance, payload=payload)

    def headers(self, delivery: dict[str, Any], attempt: int, body: bytes) -> dict[str, str]:
        """The headers GitLab sends with a delivery."""
        headers = {
            "Content-Type": "application/json",
            "User-Agent": USER_AGENT,
            "X-Gitlab-Event": delivery["event"],
            "X-Gitlab-Event-UUID": delivery["id"],
            "Idempotency-Key": delivery["id"],
            "X-Gitlab-Instance": delivery["instance"],
            "X-Gitlab-Webhook-UUID": self.hook_uuid,
        }
        if self.secret:
            headers["X-Gitlab-Token"] = self.secret
        return headers


def create_gitlab_hooks_router(hooks: GitLabWebhooks) -> APIRouter:
    """`/_emulator/gitlab/webhooks`: the deliveries, and a redeliver route (GitLab's resend)."""
    return create_deliveries_router(hooks, "/_emulator/gitlab/webhooks")
