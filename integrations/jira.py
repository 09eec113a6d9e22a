"""Jira client: issues, comments (markdown in, ADF on the wire for v3) and transitions."""

from datetime import datetime
from typing import Any

import httpx
from pydantic import BaseModel
from temporalio.exceptions import ApplicationError

from integrations.adf import adf_to_markdown, markdown_to_adf
from integrations.http import ServiceClient, build_http_client, raise_for_status

SERVICE = "Jira"
ISSUE_FIELDS = "summary,description,labels,status,reporter,comment"


class JiraComment(BaseModel):
    """One comment, its body as markdown."""

    id: str
    author_id: str
    author_name: str
    body: str
    created: datetime


class JiraIssue(BaseModel):
    """The parts of an issue ticketsmith works from; the description as markdown."""

    key: str
    summary: str
    description: str
    labels: list[str]
    status: str
    reporter: str
    comments: list[JiraComment]


class JiraTransition(BaseModel):
    """A workflow transition available on an issue, and the status it leads to."""

    id: str
    name: str
    to_status: str = ""


class JiraClient(ServiceClient):
    """Jira Cloud (REST v3, ADF) or Server/Data Center (REST v2, plain text)."""

    page_size = 100

    def __init__(
        self,
        base_url: str,
        email: str,
        token: str,
        api_version: int = 3,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        if api_version not in (2, 3):
            raise ValueError(f"Jira REST API version must be 2 or 3, not {api_version}")
        auth = httpx.BasicAuth(email, token) if email else None
        headers = {"Accept": "application/json"}
        if not email:
            headers["Authorization"] = f"Bearer {token}"
        super().__init__(build_http_client(base_url, headers, auth, transport))
        self._api = f"/rest/api/{api_version}"
        self._version = api_version

    async def _request(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        response = await self._http.request(method, f"{self._api}{path}", **kwargs)
        raise_for_status(SERVICE, response)
        return response

    def _to_markdown(self, body: Any) -> str:
        if self._version == 2:
            return body or ""
        return adf_to_markdown(body)

    def _comment(self, raw: dict[str, Any]) -> JiraComment:
        author = raw.get("author") or {}
        return JiraComment(
            id=str(raw["id"]),
            author_id=author.get("accountId") or author.get("name") or "",
            author_name=author.get("displayName", ""),
            body=self._to_markdown(raw.get("body")),
            created=raw["created"],
        )

    async def get_issue(self, key: str) -> JiraIssue:
        """The issue with its description and every comment."""
        data = (await self._request("GET", f"/issue/{key}", params={"fields": ISSUE_FIELDS})).json()
        fields = data["fields"]
        page = fields.get("comment") or {}
        comments = [self._comment(c) for c in page.get("comments", [])]
        if page.get("total", 0) > len(comments):
            comments = await self.list_comments(key)
        return JiraIssue(
            key=data["key"],
            summary=fields.get("summary") or "",
            description=self._to_markdown(fields.get("description")),
            labels=fields.get("labels") or [],
            status=(fields.get("status") or {}).get("name", ""),
            reporter=(fields.get("reporter") or {}).get("displayName", ""),
            comments=comments,
        )

    async def add_comment(self, key: str, markdown: str) -> JiraComment:
        """Post a comment written in markdown."""
        body = markdown if self._version == 2 else markdown_to_adf(markdown)
        response = await self._request("POST", f"/issue/{key}/comment", json={"body": body})
        return self._comment(response.json())

    async def list_comments(self, key: str) -> list[JiraComment]:
        """Every comment of an issue, oldest first, across pages."""
        comments: list[JiraComment] = []
        while True:
            params = {"startAt": len(comments), "maxResults": self.page_size, "orderBy": "created"}
            page = (await self._request("GET", f"/issue/{key}/comment", params=params)).json()
            batch = page.get("comments", [])
            comments.extend(self._comment(c) for c in batch)
            if not batch or len(comments) >= page.get("total", 0):
                return comments

    async def list_transitions(self, key: str) -> list[JiraTransition]:
        """The transitions the issue's workflow allows from its current status."""
        data = (await self._request("GET", f"/issue/{key}/transitions")).json()
        return [
            JiraTransition(
                id=str(t["id"]), name=t["name"], to_status=(t.get("to") or {}).get("name", "")
            )
            for t in data.get("transitions", [])
        ]

    async def transition_to(self, key: str, name: str) -> bool:
        """Move the issue to a status by transition or status name; False when it is there."""
        wanted = name.casefold()
        current = (await self._request("GET", f"/issue/{key}", params={"fields": "status"})).json()
        if current["fields"]["status"]["name"].casefold() == wanted:
            return False
        transitions = await self.list_transitions(key)
        match = next(
            (t for t in transitions if wanted in (t.name.casefold(), t.to_status.casefold())), None
        )
        if match is None:
            available = ", ".join(f"{t.name} (-> {t.to_status})" for t in transitions) or "none"
            raise ApplicationError(
                f"Jira issue {key} has no transition to '{name}'; available: {available}",
                type="JiraTransitionNotFound",
                non_retryable=True,
            )
        await self._request(
            "POST", f"/issue/{key}/transitions", json={"transition": {"id": match.id}}
        )
        return True
