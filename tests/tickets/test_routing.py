"""A project's tickets go to repositories by component or label, a named one, or the default."""

from pathlib import Path

import httpx
import pytest

from cli.commands import ensure_ticket_exists
from config import Settings
from harness.serving import serve
from tests.emulators.helpers import new_emulator
from tickets.launch import LaunchError, ticket_input
from tickets.projects import ProjectConfigError, load_projects
from tickets.routing import TicketFacts
from webhooks.jira_events import read_labels_created

PROJECTS = """
[projects.SHOP]
repository = "shop/api"
base_branch = "main"
test_command = "pytest -q"

[[projects.SHOP.repositories]]
repository = "shop/web"
components = ["Frontend"]
labels = ["ui"]
base_branch = "trunk"
test_command = "npm test"

[[projects.SHOP.repositories]]
repository = "shop/docs"
labels = ["docs"]
"""


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    path = tmp_path / "projects.toml"
    path.write_text(PROJECTS)
    return Settings(projects_file=path, emulator_port=9100)


def route(settings: Settings, **facts: list[str]) -> str:
    inp = ticket_input("SHOP-1", settings, facts=TicketFacts(**facts))
    return inp.project.repository


def test_components_then_labels_then_the_default(settings: Settings) -> None:
    assert route(settings, components=["frontend"]) == "shop/web"
    assert route(settings, labels=["docs"]) == "shop/docs"
    assert route(settings, labels=["docs"], components=["Frontend"]) == "shop/web"
    assert route(settings, labels=["backend"], components=["Payments"]) == "shop/api"
    assert route(settings) == "shop/api"


def test_the_chosen_repository_brings_its_branch_test_command_and_clone_url(
    settings: Settings,
) -> None:
    web = ticket_input("SHOP-1", settings, facts=TicketFacts(labels=["ui"])).project
    assert (web.base_branch, web.test_command) == ("trunk", "npm test")
    assert web.clone_url == "http://127.0.0.1:9100/shop/web.git"
    docs = ticket_input("SHOP-1", settings, facts=TicketFacts(labels=["docs"])).project
    assert (docs.base_branch, docs.test_command) == ("main", "pytest -q")


def test_a_ticket_can_name_one_of_its_projects_repositories(settings: Settings) -> None:
    assert route(settings, labels=["repo:shop/docs"], components=["Frontend"]) == "shop/docs"
    with pytest.raises(LaunchError) as refused:
        route(settings, labels=["repo:evil/elsewhere"])
    message = str(refused.value)
    assert "repo:evil/elsewhere" in message and "shop/api, shop/web, shop/docs" in message
    assert "[[projects.SHOP.repositories]]" in message


def test_a_bad_route_names_the_field(tmp_path: Path) -> None:
    path = tmp_path / "projects.toml"
    path.write_text(PROJECTS + '[[projects.SHOP.repositories]]\nrepository = "no-slash"\n')
    with pytest.raises(ProjectConfigError, match="projects.SHOP.repositories.2.repository"):
        load_projects(path)


async def test_two_tickets_of_one_project_go_to_two_repositories_by_component(
    settings: Settings, tmp_path: Path
) -> None:
    with serve(new_emulator(tmp_path / "state")) as url:
        for summary, component in (("Checkout button", "Frontend"), ("Refund API", "Payments")):
            payload = {"project": "SHOP", "summary": summary, "components": [component]}
            httpx.post(f"{url}/_emulator/issues", json=payload).raise_for_status()
        jira = settings.model_copy(update={"jira_base_url": url})
        chosen = {}
        for key in ("SHOP-1", "SHOP-2"):
            issue = await ensure_ticket_exists(jira, key)
            facts = TicketFacts(labels=issue.labels, components=issue.components)
            chosen[key] = ticket_input(key, jira, facts=facts).project.repository
    assert chosen == {"SHOP-1": "shop/web", "SHOP-2": "shop/api"}


def test_the_label_webhook_carries_the_issues_components() -> None:
    payload = {
        "webhookEvent": "jira:issue_created",
        "issue": {
            "key": "SHOP-3",
            "fields": {
                "summary": "Docs for refunds",
                "labels": ["ticketsmith", "docs"],
                "components": [{"id": "1", "name": "Frontend"}],
            },
        },
    }
    change = read_labels_created(payload)
    assert change.components == ["Frontend"] and change.issue_labels == ["ticketsmith", "docs"]
