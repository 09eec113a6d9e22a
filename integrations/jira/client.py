"""Jira client: Cloud REST v3 (ADF) or Server/Data Center v2 (wiki markup), markdown in and out."""

from datetime import datetime
from typing import Any

import httpx
from pydantic import BaseModel
from temporalio.exceptions import ApplicationError

from integrations.http import ServiceClient, build_http_client, raise_for_status
from integrations.jira.adf import adf_to_markdown, markdown_to_adf
from integrations.jira.wiki import markdown_to_wiki, wiki_to_markdown
from integrations.security.secrets import SecretFinder

SERVICE = "Jira"
ISSUE_FIELDS = (
    "summary,description,labels,components,status,reporter,assignee,issuetype,updated,comment"
)


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
    components: list[str] = []
    status: str
    reporter: str
    comments: list[JiraComment]
    acceptance_criteria: str = ""
    id: str = ""
    assignee: str = ""
    issue_type: str = ""
    updated: str = ""


class JiraTransition(BaseModel):
    """A workflow transition available on an issue, and the status it leads to."""

    id: str
    name: str
    to_status: str = ""


class JiraClient(ServiceClient):
    """Jira Cloud (REST v3, ADF) or Server/Data Center (REST v2, wiki markup)."""

    page_size = 100

    # With an email it signs in with Basic auth (email + API token); without one the token is
    # sent as a bearer token (a Data Center personal access token, or an OAuth token).
    def __init__(
        self,
        base_url: str,
        email: str,
        token: str,
        api_version: int = 3,
        transport: httpx.AsyncBaseTransport | None = None,
        acceptance_criteria_field: str | None = None,
        secrets: SecretFinder | None = None,
    ) -> None:
        if api_version not in (2, 3):
            raise ValueError(f"Jira REST API version must be 2 or 3, not {api_version}")
        auth = httpx.BasicAuth(email, token) if email else None
        headers = {"Accept": "application/json"}
        if not email:
            headers["Authorization"] = f"Bearer {token}"
        super().__init__(build_http_client(base_url, headers, auth, transport, secrets))
        self._api = f"/rest/api/{api_version}"
        self._version = api_version
        self._criteria_field = acceptance_criteria_field or None
        self._criteria_id: str | None = None

    async def _request(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        response = await self._http.request(method, f"{self._api}{path}", **kwargs)
        raise_for_status(SERVICE, response)
        return response

    def _to_markdown(self, body: Any) -> str:
        """Markdown for a rich-text value: ADF, or wiki markup on v2 (single-line fields too)."""
        if isinstance(body, dict):
            return adf_to_markdown(body)
        if not isinstance(body, str):
            return ""
        return wiki_to_markdown(body) if self._version == 2 else body

    def _comment(self, raw: dict[str, Any]) -> JiraComment:
        author = raw.get("author") or {}
        return JiraComment(
            id=str(raw["id"]),
            author_id=author.get("accountId") or author.get("name") or "",
            author_name=author.get("displayName", ""),
            body=self._to_markdown(raw.get("body")),
            created=raw["created"],
        )

    async def search_issues(self, jql: str, limit: int = 10) -> list[JiraIssue]:
        """Issues a JQL query finds (first page only, comments left out)."""
        params = {"jql": jql, "fields": ISSUE_FIELDS, "maxResults": limit}
        data = (await self._request("GET", "/search/jql", params=params)).json()
        return [self._issue(raw, None) for raw in data.get("issues", [])]

    async def get_issue(self, key: str) -> JiraIssue:
        """The issue with its description, acceptance criteria (when configured) and comments."""
        criteria = await self._criteria_field_id()
        wanted = f"{ISSUE_FIELDS},{criteria}" if criteria else ISSUE_FIELDS
        data = (await self._request("GET", f"/issue/{key}", params={"fields": wanted})).json()
        page = data["fields"].get("comment") or {}
        issue = self._issue(data, criteria)
        if page.get("total", 0) > len(issue.comments):
            issue.comments = await self.list_comments(key)
        return issue

    def _issue(self, data: dict[str, Any], criteria: str | None) -> JiraIssue:
        """An issue from its JSON; comments as far as the JSON holds them."""
        fields = data["fields"]
        page = fields.get("comment") or {}
        comments = [self._comment(c) for c in page.get("comments", [])]
        return JiraIssue(
            key=data["key"],
            summary=fields.get("summary") or "",
            description=self._to_markdown(fields.get("description")),
            labels=fields.get("labels") or [],
            components=[c["name"] for c in fields.get("components") or [] if c.get("name")],
            status=(fields.get("status") or {}).get("name", ""),
            reporter=(fields.get("reporter") or {}).get("displayName", ""),
            comments=comments,
            acceptance_criteria=self._to_markdown(fields.get(criteria or "")),
            id=str(data.get("id", "")),
            assignee=(fields.get("assignee") or {}).get("displayName", ""),
            issue_type=(fields.get("issuetype") or {}).get("name", ""),
            updated=fields.get("updated") or "",
        )

    async def _criteria_field_id(self) -> str | None:
        """The acceptance-criteria field's id; a name is looked up once among Jira's fields."""
        name = self._criteria_field
        if name is None or name.startswith("customfield_"):
            return name
        if self._criteria_id is None:
            fields = (await self._request("GET", "/field")).json()
            ids = [f["id"] for f in fields if str(f.get("name", "")).casefold() == name.casefold()]
            if not ids:
                raise ApplicationError(
                    f"Jira has no field named '{name}'; set the acceptance-criteria field to "
                    "one of its field names or a customfield_ id",
                    type="JiraFieldNotFound",
                    non_retryable=True,
                )
            self._criteria_id = ids[0]
        return self._criteria_id

    async def reporter_ids(self, key: str) -> list[str]:
        """Every id the issue's reporter is known by (account id; name and key on Server)."""
        data = (await self._request("GET", f"/issue/{key}", params={"fields": "reporter"})).json()
        reporter = data["fields"].get("reporter") or {}
        return [str(reporter[k]) for k in ("accountId", "name", "key") if reporter.get(k)]

    async def user_groups(self, user_id: str) -> list[str]:
        """The names of the Jira groups a user belongs to (none for an unknown user)."""
        if self._version == 3:
            path, params = "/user/groups", {"accountId": user_id}
        else:  # Server / Data Center: users by name, groups expanded on the user
            path, params = "/user", {"username": user_id, "expand": "groups"}
        try:
            data = (await self._request("GET", path, params=params)).json()
        except ApplicationError as err:
            if err.type == f"{SERVICE}NotFound":
                return []
            raise
        groups = data if isinstance(data, list) else (data.get("groups") or {}).get("items", [])
        return [str(g["name"]) for g in groups if isinstance(g, dict) and g.get("name")]

    async def member_of(self, key: str, user_id: str, groups: list[str]) -> list[str]:
        """The asked groups a user belongs to (`key`, the issue, chooses nothing on Jira)."""
        theirs = {g.casefold() for g in await self.user_groups(user_id)}
        return [g for g in groups if g.casefold() in theirs]

    def marked(self, markdown: str, marker: str) -> str:
        """A comment with its marker as an italic last line."""
        return f"{markdown}\n\n_{marker}_"

    async def add_comment(self, key: str, markdown: str) -> JiraComment:
        """Post a comment written in markdown."""
        body = markdown_to_wiki(markdown) if self._version == 2 else markdown_to_adf(markdown)
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

    async def transition_to(self, key: str, name: str, done: bool = False) -> bool:
        """Move the issue to a status by transition or status name; False when it is there
        (the status alone says whether the work is done)."""
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
