"""Advisory activities: the known vulnerabilities of the dependency versions a change brings."""

from temporalio import activity
from temporalio.exceptions import ApplicationError

from activities.advisories.messages import AdvisoryReport, CheckAdvisoriesInput, CheckedDependency
from activities.repo import Workspaces
from integrations.environments.dependency_changes import dependency_changes, is_dependency_file
from integrations.security.advisories import SERVICE, Advisory, AdvisoryIndexClient

UNPINNED = "not pinned to one version"
NOT_ON_INDEX = "the index has no such release"


class AdvisoryActivities:
    """Compares the change's dependency files with the base branch's and asks the index."""

    def __init__(self, index: AdvisoryIndexClient | None, workspaces: Workspaces) -> None:
        self._index = index
        self._workspaces = workspaces

    @activity.defn
    async def check_dependency_advisories(self, inp: CheckAdvisoriesInput) -> AdvisoryReport:
        """Each dependency the change adds or moves, with its new version's advisories."""
        changed = [c for c in inp.changes if is_dependency_file(c.path)]
        if not changed:
            return AdvisoryReport()
        before: dict[str, str] = {}
        async with self._workspaces.using(inp.repo, "git") as workspace:
            await workspace.fetch_origin()
            for change in changed:
                ref = f"refs/remotes/origin/{inp.repo.base_branch}:{change.path}"
                code, text = await workspace.run_git("show", ref, check=False)
                before[change.path] = text if code == 0 else ""  # new on the branch
        after = {c.path: "" if c.delete else c.content for c in changed}
        found = dependency_changes(before, after)
        report = AdvisoryReport(dependencies=[CheckedDependency(change=c) for c in found])
        if found and self._index is None:
            report.failure = "the lookup is turned off (TICKETSMITH_ADVISORY_INDEX_URL is empty)"
            return report
        for checked in report.dependencies:
            if checked.change.version is None:
                checked.unchecked = UNPINNED
            elif self._index is not None:
                checked.advisories, checked.unchecked = await self._look_up(
                    self._index, checked.change.name, checked.change.version
                )
        return report

    @staticmethod
    async def _look_up(
        index: AdvisoryIndexClient, name: str, version: str
    ) -> tuple[list[Advisory], str]:
        """The release's advisories, or why there are none to tell."""
        try:
            return await index.advisories(name, version), ""
        except ApplicationError as err:
            if err.type != f"{SERVICE}NotFound":
                raise  # Temporal retries what may heal; the workflow says what could not be asked
            return [], NOT_ON_INDEX
