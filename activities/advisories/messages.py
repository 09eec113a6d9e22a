"""Typed input and result of the dependency advisory check."""

from pydantic import BaseModel, Field

from activities.messages import RepoRef
from graphs.schemas import FileChange
from integrations.environments.dependency_changes import DependencyChange
from integrations.security.advisories import Advisory


class CheckAdvisoriesInput(BaseModel):
    """The change's files, to compare with the base branch's."""

    repo: RepoRef
    changes: list[FileChange]


class CheckedDependency(BaseModel):
    """A dependency the change adds or moves, and what the index knows of its new version."""

    change: DependencyChange
    advisories: list[Advisory] = Field(default_factory=list)
    # Why its version was not looked up: not pinned to one, or not on the index.
    unchecked: str = ""


class AdvisoryReport(BaseModel):
    """The changed dependencies, or why none could be checked."""

    dependencies: list[CheckedDependency] = Field(default_factory=list)
    failure: str = ""  # the index could not be asked: nothing is known

    @property
    def vulnerable(self) -> list[CheckedDependency]:
        """The dependencies whose new version has known vulnerabilities."""
        return [d for d in self.dependencies if d.advisories]
