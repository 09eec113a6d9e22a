"""How the Jira emulator shows its data: REST v3 (ADF) and v2 (wiki markup) bodies, webhooks."""

from typing import Any

from emulators.adf_check import adf_problems
from emulators.state import EmulatorError, EmulatorState, now
from integrations.jira.adf import adf_to_markdown
from integrations.jira.wiki import adf_to_wiki, wiki_to_adf

# status name -> (status id, status category key)
STATUSES = {
    "To Do": ("10000", "new"),
    "In Progress": ("3", "indeterminate"),
    "In Review": ("10001", "indeterminate"),
    "Done": ("10002", "done"),
}
SYSTEM_FIELDS = {
    "summary": "Summary",
    "description": "Description",
    "labels": "Labels",
    "components": "Component/s",
    "status": "Status",
    "reporter": "Reporter",
    "assignee": "Assignee",
    "issuetype": "Issue Type",
    "project": "Project",
    "created": "Created",
    "updated": "Updated",
    "comment": "Comment",
}
WEBHOOK_FIELDS = ("summary", "labels", "status", "issuetype", "project", "created", "updated")


def jira_error(status_code: int, *messages: str, **errors: str) -> EmulatorError:
    """An error with Jira's body shape."""
    return EmulatorError(status_code, {"errorMessages": list(messages), "errors": errors})


def jira_time() -> str:
    """A timestamp in Jira's format, 2025-01-06T09:00:00.000+0000."""
    t = now()
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}+0000"


def render_text(adf: dict[str, Any] | None, version: int) -> Any:
    """A rich-text value as the API version shows it: ADF on v3, wiki markup on v2."""
    if version == 3:
        return adf
    return adf_to_wiki(adf) if adf else None


def parse_text(value: Any, version: int, field: str) -> dict[str, Any]:
    """A rich-text value sent to the API, as stored (ADF), validated the way Jira does."""
    if version == 2 and isinstance(value, str):
        return wiki_to_adf(value)
    if version == 3 and isinstance(value, dict) and value.get("type") == "doc":
        if adf_problems(value):
            raise jira_error(
                400, "INVALID_INPUT", **{field: f"{field.capitalize()} body is not valid!"}
            )
        return value
    expected = "a string" if version == 2 else "an Atlassian Document (see the ADF format)"
    raise jira_error(400, **{field: f"Operation value must be {expected}"})


def is_blank(adf: dict[str, Any]) -> bool:
    """Whether a document holds no text."""
    return not adf_to_markdown(adf).strip()


class JiraViews:
    """JSON for users, comments, issues and webhook payloads over the emulator's state."""

    def __init__(self, state: EmulatorState) -> None:
        self.state = state

    def user(self, account_id: str, base: str, version: int) -> dict[str, Any]:
        """A user; v2 adds the name and key that Server / Data Center identify users by."""
        user = self.state.user(account_id) or {"accountId": account_id, "displayName": account_id}
        out = {
            "self": f"{base}/rest/api/{version}/user?accountId={account_id}",
            "accountId": account_id,
            "displayName": user["displayName"],
            "emailAddress": user.get("emailAddress"),
            "accountType": user.get("accountType", "atlassian"),
            "active": True,
            "timeZone": "UTC",
        }
        return out | {"name": account_id, "key": account_id} if version == 2 else out

    def group(self, name: str, base: str, version: int) -> dict[str, Any]:
        """A group as the user's group list shows it (Server has no group id)."""
        shown = {"name": name, "self": f"{base}/rest/api/{version}/group?groupname={name}"}
        return shown if version == 2 else shown | {"groupId": f"group-{name}"}

    def comment(self, issue: dict[str, Any], c: dict[str, Any], version: int, base: str) -> Any:
        """A comment as GET .../comment shows it."""
        author = self.user(c["author"], base, version)
        return {
            "self": f"{base}/rest/api/{version}/issue/{issue['id']}/comment/{c['id']}",
            "id": c["id"],
            "author": author,
            "updateAuthor": author,
            "body": render_text(c["body"], version),
            "created": c["created"],
            "updated": c["updated"],
            "jsdPublic": True,
        }

    def fields(self, issue: dict[str, Any], version: int, base: str) -> dict[str, Any]:
        """Every field of an issue, custom fields included."""
        status_id, category = STATUSES[issue["status"]]
        project = next(p for p in self.state.data["projects"] if p["key"] == issue["project"])
        comments = [self.comment(issue, c, version, base) for c in issue["comments"]]
        fields = {
            "summary": issue["summary"],
            "description": render_text(issue["description"], version),
            "labels": issue["labels"],
            "components": [{"name": name} for name in issue.get("components", [])],
            "status": {
                "self": f"{base}/rest/api/{version}/status/{status_id}",
                "id": status_id,
                "name": issue["status"],
                "statusCategory": {"key": category},
            },
            "reporter": self.user(issue["reporter"], base, version),
            "assignee": self.user(issue["assignee"], base, version)
            if issue.get("assignee")
            else None,
            "issuetype": {"name": issue["issuetype"]},
            "project": {"id": project["id"], "key": project["key"], "name": project["name"]},
            "created": issue["created"],
            "updated": issue["updated"],
            "comment": {
                "comments": comments,
                "self": f"{base}/rest/api/{version}/issue/{issue['id']}/comment",
                "maxResults": len(comments),
                "total": len(comments),
                "startAt": 0,
            },
        }
        for field_id, value in (issue.get("custom_fields") or {}).items():
            fields[field_id] = render_text(value, version)
        return fields

    def issue(self, issue: dict[str, Any], version: int, base: str, wanted: str | None) -> Any:
        """An issue as GET /issue/{key} shows it, limited to the `fields` asked for."""
        fields = self.fields(issue, version, base)
        names = {n.strip() for n in (wanted or "").split(",") if n.strip()}
        if names and not names & {"*all", "*navigable"}:
            fields = {k: v for k, v in fields.items() if k in names}
        return {
            "id": issue["id"],
            "key": issue["key"],
            "self": f"{base}/rest/api/{version}/issue/{issue['id']}",
            "fields": fields,
        }

    def field_list(self) -> list[dict[str, Any]]:
        """GET /field: the system fields and the seeded custom fields, with their names."""
        system = [
            {"id": f, "key": f, "name": name, "custom": False} for f, name in SYSTEM_FIELDS.items()
        ]
        custom = [
            {"id": f["id"], "key": f["id"], "name": f["name"], "custom": True}
            for f in self.state.data.get("fields", [])
        ]
        return system + custom

    def webhook_issue(self, issue: dict[str, Any], base: str) -> dict[str, Any]:
        """The issue inside a webhook payload (Jira sends v2-style fields there)."""
        fields = self.fields(issue, 2, base)
        return {
            "id": issue["id"],
            "self": f"{base}/rest/api/2/issue/{issue['id']}",
            "key": issue["key"],
            "fields": {k: fields[k] for k in WEBHOOK_FIELDS},
        }

    def comment_events(
        self, issue: dict[str, Any], c: dict[str, Any], base: str, server: bool
    ) -> list[dict[str, Any]]:
        """The webhooks of a new comment (bodies in wiki markup, as Jira sends them).

        Cloud: `comment_created` with the issue. Server/DC: `comment_created` without it,
        and a `jira:issue_updated` (issue_commented) that carries both.
        """
        stamp, comment = int(now().timestamp() * 1000), self.comment(issue, c, 2, base)
        created = {"timestamp": stamp, "webhookEvent": "comment_created", "comment": comment}
        if not server:
            return [created | {"issue": self.webhook_issue(issue, base)}]
        updated = {
            "timestamp": stamp,
            "webhookEvent": "jira:issue_updated",
            "issue_event_type_name": "issue_commented",
            "user": comment["author"],
            "issue": self.webhook_issue(issue, base),
            "comment": comment,
        }
        return [created, updated]

    def issue_updated(
        self, issue: dict[str, Any], actor: str, items: list[dict[str, Any]], base: str
    ) -> Any:
        """A `jira:issue_updated` webhook payload with the changelog of one edit."""
        kind = "issue_generic" if items[0]["field"] == "status" else "issue_updated"
        return {
            "timestamp": int(now().timestamp() * 1000),
            "webhookEvent": "jira:issue_updated",
            "issue_event_type_name": kind,
            "user": self.user(actor, base, 2),
            "issue": self.webhook_issue(issue, base),
            "changelog": {"id": str(self.state.next_id("jira-changelog", 10000)), "items": items},
        }
