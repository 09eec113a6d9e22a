"""The MVP builder's tester (the generated project's own tests, run for real) and publisher
(the project pushed as a repository of its own to the forge)."""

import asyncio
import tempfile
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field
from temporalio import activity

from activities.graph_agents import agent_input
from activities.heartbeat import heartbeating
from activities.messages import RepoRef
from activities.mvp.agents import Project, Verdict
from activities.mvp.smoke import project_paths, smoke_run
from activities.repo import Workspaces
from activities.testing.run import run_project_tests
from graphs.analysis.scan import detect_frameworks, detect_test_command, scan_files
from graphs.dsl.calls import AgentCall, AgentResult
from graphs.mvp.manager import ManagerDecision
from graphs.mvp.project import slugify, write_tree
from graphs.mvp.usage import Usage
from integrations.git.client import GitWorkspace
from integrations.github.client import GitHubClient
from integrations.github.repos import ensure_user_repository

TEST_TIMEOUT_SECONDS = 300.0
DEFAULT_TEST_COMMAND = "python -m pytest -q"
# Generated projects share the environment cache, keyed by their dependency files.
ENVIRONMENTS = "generated-projects"


class TesterInput(BaseModel):
    """The workers' outputs of this revision and the project before it."""

    written: list[dict[str, Any] | None] = Field(default_factory=list)
    project: Project | None = None
    revision: int = 1
    timeout_seconds: float = TEST_TIMEOUT_SECONDS
    manager: ManagerDecision | None = None  # how the project is run (older runs: not given)


class PublishInput(BaseModel):
    """The files to push and the repository name to push them to."""

    name: str
    files: dict[str, str] = Field(default_factory=dict)
    message: str = "Generated project"
    description: str = ""
    qa: Verdict | None = None  # this revision's verdict: not passed, the commit says it is a draft


def merge(previous: Project | None, written: list[dict[str, Any] | None]) -> tuple[dict, bool]:
    """The latest version of every file, and whether any changed."""
    files = dict(previous.files) if previous else {}
    changed = False
    for output in written:
        if not output or not output.get("path") or output.get("content") is None:
            continue
        if files.get(output["path"]) != output["content"]:
            files[output["path"]] = output["content"]
            changed = True
    return files, changed


def project_test_command(root: Path) -> str | None:
    """The project's test command as its layout reveals it; pytest for Python test files."""
    files = scan_files(root)
    command = detect_test_command(root, files, detect_frameworks(root, files))
    python_tests = any(
        f.endswith(".py") and (Path(f).name.startswith("test_") or f.endswith("_test.py"))
        for f in files
    )
    # pytest runs unittest suites too, and fails when it finds no test at all.
    if python_tests and (command is None or "unittest" in command):
        return DEFAULT_TEST_COMMAND
    return command


class ProjectAgents:
    """Tester and publisher; the publisher pushes with the worker's forge credentials."""

    def __init__(self, github: GitHubClient, workspaces: Workspaces) -> None:
        self._github = github
        self._workspaces = workspaces

    @activity.defn(name="mvp_tester")
    async def mvp_tester(self, call: AgentCall) -> AgentResult:
        """Merge the revision's files and run the project's own tests on a fresh copy."""
        inp = agent_input("mvp_tester", TesterInput, call)
        files, changed = merge(inp.project, inp.written)
        project = Project(files=files, changed=changed, revision=inp.revision)
        if files:
            with tempfile.TemporaryDirectory(prefix="mvp-tests-") as tmp:
                root = Path(tmp)
                await asyncio.to_thread(write_tree, root, files)
                project.test_command = await asyncio.to_thread(project_test_command, root)
                before = await asyncio.to_thread(project_paths, root)
                if project.test_command:
                    # A plain directory: only the workspace's sandboxed command runner is used.
                    workspace = GitWorkspace(root, remote_url="")
                    project.tests = await heartbeating(
                        run_project_tests(
                            self._workspaces.environments, workspace, ENVIRONMENTS,
                            project.test_command, inp.timeout_seconds,
                        )
                    )  # fmt: skip
                after = await asyncio.to_thread(project_paths, root)
                project.stray_files = sorted(after - before)
                if inp.manager is not None:
                    usage = Usage.of(inp.manager)
                    project.smoke = await heartbeating(
                        smoke_run(self._workspaces.environments, root, ENVIRONMENTS, usage)
                    )
        return AgentResult(output=project.model_dump(mode="json"))

    @activity.defn(name="forge_publish")
    async def forge_publish(self, call: AgentCall) -> AgentResult:
        """Create the repository once and push the files as a commit (unchanged: no commit)."""
        inp = agent_input("forge_publish", PublishInput, call)
        name = slugify(inp.name)
        if not inp.files:
            return AgentResult(output={"repository": None, "note": "no files to publish"})
        repo = await ensure_user_repository(self._github, name, inp.description)
        ref = RepoRef(
            workflow_id=f"publish-{name}",
            repository=repo.full_name,
            clone_url=repo.clone_url,
            branch=repo.default_branch,
            base_branch=repo.default_branch,
        )
        async with self._workspaces.using(ref, "publish") as workspace:
            result = await workspace.commit_and_push(
                repo.default_branch, repo.default_branch, inp.files, commit_message(inp)
            )
        output = {
            "repository": repo.full_name,
            "url": repo.html_url,
            "clone_url": repo.clone_url,
            "sha": result.sha,
            "changed": result.changed,
            "draft": inp.qa is None or not inp.qa.passed,
        }
        return AgentResult(output=output)


def commit_message(inp: PublishInput) -> str:
    """The revision's commit message; a revision QA did not pass says it is a draft, and why."""
    if inp.qa is None or inp.qa.passed:
        return inp.message
    missing = "\n".join(f"- {problem}" for problem in inp.qa.problems) or f"- {inp.qa.verdict}"
    return f"Draft: {inp.message}\n\nNot working yet:\n{missing}"
