"""GitHub webhooks sent by the emulator: signed with X-Hub-Signature-256, each with its
X-GitHub-Delivery id (kept on redelivery), retried in the background; admin routes to list
and redeliver them."""

from typing import Any

from fastapi import APIRouter, HTTPException

from emulators.jira.webhooks import JiraWebhooks, sign


class GitHubWebhooks(JiraWebhooks):
    """Sends each GitHub event to one URL and keeps a log of the deliveries."""

    def send(self, event: str, payload: dict[str, Any]) -> dict[str, Any] | None:
        """Queue a `event` delivery; returns its log entry (None when no URL is set)."""
        return self.queue(event=event, action=payload.get("action"), payload=payload)

    def headers(self, delivery: dict[str, Any], attempt: int, body: bytes) -> dict[str, str]:
        """The headers GitHub sends with a delivery."""
        headers = {
            "Content-Type": "application/json",
            "User-Agent": "GitHub-Hookshot/ticketsmith-emulator",
            "X-GitHub-Event": delivery["event"],
            "X-GitHub-Delivery": delivery["id"],
            "X-GitHub-Hook-ID": "1",
        }
        if self.secret:
            headers["X-Hub-Signature-256"] = sign(self.secret, body)
        return headers


def create_github_hooks_router(hooks: GitHubWebhooks) -> APIRouter:
    """`/_emulator/github/webhooks`: the deliveries, and a redeliver route as GitHub has."""
    return create_deliveries_router(hooks, "/_emulator/github/webhooks")


def create_deliveries_router(hooks: JiraWebhooks, prefix: str) -> APIRouter:
    """`prefix`: a sender's deliveries, and a route to redeliver one."""
    router = APIRouter(prefix=prefix, tags=["emulator"])

    @router.get("")
    def list_deliveries() -> dict[str, Any]:
        return {"url": hooks.url, "deliveries": hooks.deliveries}

    @router.post("/{delivery_id}/redeliver", status_code=202)
    async def redeliver(delivery_id: str) -> dict[str, Any]:
        delivery = hooks.redeliver(delivery_id)
        if delivery is None:
            raise HTTPException(404, f"no delivery {delivery_id}")
        return {"id": delivery["id"], "state": delivery["state"]}

    return router
