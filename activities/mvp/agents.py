"""The MVP builder's model agents: manager, architect, one SWE worker per file, QA."""

from typing import Any

from langchain_core.language_models import BaseChatModel
from pydantic import BaseModel, Field
from temporalio import activity

from activities.agents import model_answers
from activities.graph_agents import agent_input
from activities.heartbeat import heartbeating
from graphs.dsl.calls import AgentCall, AgentResult
from graphs.implementation.state import Review
from graphs.mvp.findings import Finding, ProjectFindings, SmokeRun, check_project
from graphs.mvp.manager import ManagerDecision, decide
from graphs.mvp.team import architect, qa_review, swe_worker
from graphs.mvp.usage import Usage
from graphs.offline import OFFLINE_NOTICE, is_offline
from graphs.schemas import Plan, PlannedFile, TestReport
from llm.fences import safe_relative_path

NEEDS_MODEL = "A language model is needed to write the code."
SHOWN_PROBLEMS = 6


class Project(BaseModel):
    """The generated project after a revision: the latest version of every file, its tests."""

    files: dict[str, str] = Field(default_factory=dict)
    tests: TestReport | None = None
    test_command: str | None = None
    changed: bool = False
    revision: int = 0
    smoke: SmokeRun | None = None  # the project's own command, run once after its tests
    stray_files: list[str] = Field(default_factory=list)  # files its tests wrote into it


class Verdict(BaseModel):
    """QA's verdict; `done` ends the revision loop (passed, or nothing more can change)."""

    passed: bool
    done: bool
    summary: str
    fixes: list[dict[str, str]] = Field(default_factory=list)
    verdict: str
    tests_passed: bool | None = None
    produced_offline: bool = False
    working: bool | None = None  # the checks without a model found nothing (None: not checked)
    problems: list[str] = Field(default_factory=list)  # what they found


class MvpInput(BaseModel):
    """What the MVP agents read from the graph's state."""

    prompt: str
    manager: ManagerDecision | None = None
    architect: Plan | None = None
    file: PlannedFile | None = None
    project: Project | None = None
    qa: Verdict | None = None
    revision: int = 1
    max_revisions: int = 15


def previous_review(qa: Verdict | None) -> Review | None:
    """QA's last verdict as the implementation graph's review."""
    if qa is None:
        return None
    return Review.model_validate({"passed": qa.passed, "summary": qa.summary, "fixes": qa.fixes})


class MvpAgents:
    """Manager, architect, SWE worker and QA on the worker's model."""

    def __init__(self, model: BaseChatModel) -> None:
        self._model = model

    def _input(self, name: str, call: AgentCall) -> MvpInput:
        return agent_input(name, MvpInput, call)

    @activity.defn(name="mvp_manager")
    async def mvp_manager(self, call: AgentCall) -> AgentResult:
        """Decide whether the request is a development request, and plan it."""
        inp = self._input("mvp_manager", call)
        with model_answers():
            decision = await heartbeating(decide(self._model, inp.prompt))
        return AgentResult(output=decision.model_dump(mode="json"), tokens=decision.tokens)

    @activity.defn(name="mvp_architect")
    async def mvp_architect(self, call: AgentCall) -> AgentResult:
        """The file plan and the interface contracts."""
        inp = self._input("mvp_architect", call)
        decision = inp.manager or ManagerDecision(development=True, reason="", plan=inp.prompt)
        with model_answers():
            plan = await heartbeating(architect(self._model, inp.prompt, decision))
        return AgentResult(output=plan.model_dump(mode="json"), tokens=plan.tokens)

    @activity.defn(name="mvp_swe_worker")
    async def mvp_swe_worker(self, call: AgentCall) -> AgentResult:
        """Write one planned file, or fix it as QA asked; files QA did not name stay as they are."""
        inp = self._input("mvp_swe_worker", call)
        if inp.file is None or inp.architect is None or inp.manager is None:
            return AgentResult(output={"path": None, "note": "nothing to write"})
        project = inp.project or Project()
        current = project.files.get(inp.file.path)
        if current is not None and untouched(inp.file.path, inp.qa, project.tests):
            return AgentResult(output=worker_output(inp.file.path, current, False, "unchanged"))
        with model_answers():
            outcome = await heartbeating(
                swe_worker(
                    self._model, inp.prompt, inp.manager, inp.architect, inp.file,
                    project.files, previous_review(inp.qa), project.tests, inp.revision,
                )
            )  # fmt: skip
        content = current if outcome.change is None else outcome.change.content
        output = worker_output(inp.file.path, content, outcome.change is not None, outcome.note)
        output["offline"] = is_offline(self._model)
        return AgentResult(output=output, tokens=outcome.tokens)

    @activity.defn(name="mvp_qa")
    async def mvp_qa(self, call: AgentCall) -> AgentResult:
        """Review the revision; say whether another revision is needed."""
        inp = self._input("mvp_qa", call)
        project = inp.project or Project()
        offline = is_offline(self._model)
        if not project.files or inp.architect is None or inp.manager is None:
            note = f"{OFFLINE_NOTICE}: {NEEDS_MODEL}" if offline else "No file was written."
            verdict = Verdict(passed=False, done=True, summary=note, verdict=note)
            verdict.produced_offline = offline
            return AgentResult(output=verdict.model_dump(mode="json"))
        with model_answers():
            review, tokens = await heartbeating(
                qa_review(
                    self._model, inp.prompt, inp.manager, inp.architect, project.files,
                    project.tests, inp.revision,
                )
            )  # fmt: skip
        tests_passed = None if project.tests is None else project.tests.passed
        findings = check_project(
            project.files, Usage.of(inp.manager), inp.architect.contracts, project.smoke,
            project.stray_files,
        )  # fmt: skip
        if not tests_passed:
            findings.findings.insert(0, tests_failing(project))
        passed = review.passed and findings.working
        verdict = Verdict(
            passed=passed,
            done=passed or offline or (inp.revision > 1 and not project.changed),
            summary=review.summary,
            fixes=[*findings.fixes(), *(fix.model_dump() for fix in review.fixes)],
            verdict=verdict_text(
                review, findings, inp.revision, inp.max_revisions, project.changed
            ),
            tests_passed=tests_passed,
            produced_offline=offline,
            working=findings.working,
            problems=findings.problems(),
        )
        return AgentResult(output=verdict.model_dump(mode="json"), tokens=tokens)


def untouched(path: str, qa: Verdict | None, tests: TestReport | None) -> bool:
    """A file with nothing to fix: QA named other files and the tests passed."""
    if qa is None or not qa.fixes or (tests is not None and not tests.passed):
        return False
    named = {safe_relative_path(fix.get("path", "")) for fix in qa.fixes}
    return path not in named


def worker_output(path: str, content: str | None, changed: bool, note: str) -> dict[str, Any]:
    """What a worker puts in the state for its file."""
    return {"path": path, "content": content, "changed": changed, "note": note}


def tests_failing(project: Project) -> Finding:
    """The finding of a revision whose tests do not pass (or did not run): no file's fix (the
    failures themselves are the workers' feedback; a test is not to be weakened to pass)."""
    if project.tests is None:
        return Finding(path="", problem="no test ran")
    return Finding(path="", problem=f"the tests fail (exit code {project.tests.exit_code})")


def verdict_text(
    review: Review, findings: ProjectFindings, revision: int, limit: int, changed: bool
) -> str:
    """The verdict in one sentence: passed only when QA passed and the checks found nothing."""
    summary = review.summary.strip()
    if review.passed and findings.working:
        return f"Passed at revision {revision}: {summary}"
    if not findings.working:
        problems = findings.problems()
        shown = "; ".join(problems[:SHOWN_PROBLEMS])
        more = (
            f" (and {len(problems) - SHOWN_PROBLEMS} more)"
            if len(problems) > SHOWN_PROBLEMS
            else ""
        )
        summary = f"not working yet: {shown}{more}. QA: {summary}"
    if revision > 1 and not changed:
        return f"Not passed: revision {revision} changed nothing; {summary}"
    if revision >= limit:
        return f"Not passed after {revision} revisions (the limit): {summary}"
    return f"Revision {revision} not passed: {summary}"
