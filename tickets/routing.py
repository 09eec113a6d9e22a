"""Which of a project's repositories a ticket goes to: named, by component or label, or the default.

Read once when the ticket starts; the choice travels in the workflow input.
"""

import re

from pydantic import BaseModel, Field

from config import ProjectConfig, RepositoryRoute

NAMED = re.compile(r"^repo:([\w.-]+/[\w.-]+)$", re.IGNORECASE)


class TicketFacts(BaseModel):
    """What a ticket says about where it belongs (from Jira; untrusted, only matched)."""

    labels: list[str] = Field(default_factory=list)
    components: list[str] = Field(default_factory=list)


class RoutingError(ValueError):
    """The ticket names a repository its project does not list."""


def choose_repository(project: ProjectConfig, facts: TicketFacts) -> RepositoryRoute:
    """The repository for the ticket, with the project's branch and test command filled in."""
    default = RepositoryRoute(repository=project.repository, clone_url=project.clone_url)
    known = [default, *project.repositories]
    chosen = _named(project, facts, known) or _matching(project.repositories, facts) or default
    return chosen.model_copy(
        update={
            "base_branch": chosen.base_branch or project.base_branch,
            "test_command": chosen.test_command or project.test_command,
        }
    )


def _named(
    project: ProjectConfig, facts: TicketFacts, known: list[RepositoryRoute]
) -> RepositoryRoute | None:
    names = [m.group(1) for label in facts.labels if (m := NAMED.match(label.strip()))]
    if not names:
        return None
    for route in known:
        if route.repository.casefold() == names[0].casefold():
            return route
    listed = ", ".join(r.repository for r in known)
    raise RoutingError(
        f"the ticket's label repo:{names[0]} names a repository project {project.jira_project} "
        f"does not list (it lists {listed}); add it under [[projects.{project.jira_project}"
        ".repositories]] in the projects file, or fix the label"
    )


def _matching(routes: list[RepositoryRoute], facts: TicketFacts) -> RepositoryRoute | None:
    components = {c.casefold() for c in facts.components}
    labels = {label.casefold() for label in facts.labels}
    for route in routes:  # components first: they are what a team files work under
        if components & {c.casefold() for c in route.components}:
            return route
    for route in routes:
        if labels & {label.casefold() for label in route.labels}:
            return route
    return None
