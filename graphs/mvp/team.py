"""The architect, one SWE worker and QA of the MVP builder, built on the planning graph and
the implementation graph's worker and review nodes."""

import tempfile
from pathlib import Path, PurePosixPath

from langchain_core.language_models import BaseChatModel

from graphs.analysis.graph import index_repository
from graphs.implementation.diagnose.feedback import review_feedback
from graphs.implementation.journal import Journal, WorkerOutcome
from graphs.implementation.prepare import CONTEXT_SNIPPETS
from graphs.implementation.review import make_review
from graphs.implementation.state import Assignment, Review, WorkerState
from graphs.implementation.worker.node import write_file
from graphs.mvp.asserting import is_test_file
from graphs.mvp.manager import ManagerDecision
from graphs.mvp.project import write_tree
from graphs.mvp.usage import Usage, entry_module, input_files
from graphs.planning.graph import create_plan
from graphs.schemas import (
    Analysis,
    FileChange,
    Plan,
    PlannedFile,
    Requirements,
    TestReport,
    TicketContext,
)

NEW_PROJECT = Analysis(
    summary="An empty repository: the project is written from scratch, in Python, with pytest.",
    languages=["Python"],
    frameworks=["pytest"],
    test_command="python -m pytest -q",
    files=[],
)
ACCEPTANCE = [
    "The project has pytest tests for every feature, each asserting what the feature does, "
    "and `python -m pytest -q` passes.",
    "It needs nothing beyond the Python standard library and pytest.",
    "Every function does what it promises: no `pass`, `...` or NotImplementedError bodies.",
    "Tests write files only into pytest's `tmp_path`.",
]


def request_ticket(prompt: str, decision: ManagerDecision) -> TicketContext:
    """The request as the ticket the planning and implementation pieces read."""
    tasks = "\n".join(f"- {task}" for task in decision.tasks)
    usage = Usage.of(decision).text()
    return TicketContext(
        key="MVP", summary=prompt[:200], description=f"{decision.plan}\n{tasks}\n{usage}".strip()
    )


def requirements_of(prompt: str, decision: ManagerDecision) -> Requirements:
    """The manager's tasks as requirements; the usage and the working standard as criteria."""
    usage = Usage.of(decision)
    criteria = [*ACCEPTANCE, *([f"{usage.text()}; it exits 0."] if usage.command else [])]
    return Requirements(requirements=decision.tasks or [prompt], acceptance_criteria=criteria)


def with_entry_point(plan: Plan, usage: Usage) -> Plan:
    """The plan with the file the command starts among its files, and how it is run stated."""
    paths = [f.path for f in plan.files]
    entry = entry_module(usage, paths)
    files = list(plan.files)
    if entry and entry not in paths:
        purpose = f"The entry point: {usage.text()}"
        files.append(PlannedFile(path=entry, action="create", purpose=purpose))
    if not any(is_test_file(path) for path in [*paths, *(f.path for f in files)]):
        stem = PurePosixPath(entry or (paths[0] if paths else "main.py")).stem.strip("_")
        purpose = "pytest tests of every feature, each asserting what it does"
        files.append(PlannedFile(path=f"tests/test_{stem or 'main'}.py", action="create",
                                 purpose=purpose))  # fmt: skip
    for sample in input_files(usage):
        if sample not in paths:
            purpose = f"A small sample input, so that `{usage.command}` works on its first run."
            files.append(PlannedFile(path=sample, action="create", purpose=purpose))
    markdown = f"{plan.markdown.rstrip()}\n\n## How it is run\n\n{usage.text()}\n"
    return plan.model_copy(update={"files": files, "markdown": markdown})


async def architect(model: BaseChatModel, prompt: str, decision: ManagerDecision) -> Plan:
    """The file plan and the interface contracts of the MVP."""
    ticket = request_ticket(prompt, decision)
    plan = await create_plan(model, ticket, NEW_PROJECT, requirements_of(prompt, decision), [], 1)
    creations = [f.model_copy(update={"action": "create"}) for f in plan.files]
    return with_entry_point(plan.model_copy(update={"files": creations}), Usage.of(decision))


async def swe_worker(
    model: BaseChatModel,
    prompt: str,
    decision: ManagerDecision,
    plan: Plan,
    planned: PlannedFile,
    files: dict[str, str],
    review: Review | None,
    tests: TestReport | None,
    revision: int,
) -> WorkerOutcome:
    """Write (or fix) one file, seeing the project's other files as related code."""
    with tempfile.TemporaryDirectory(prefix="mvp-worker-") as tmp:
        root = Path(tmp)
        write_tree(root, files)
        index = index_repository(root)
        query = f"{planned.path} {planned.purpose}"
        related = list(index.context_query(query, k=CONTEXT_SNIPPETS + 1))
        related = [s for s in related if s.path != planned.path][:CONTEXT_SNIPPETS]
        state = WorkerState(
            repo_dir=root,
            ticket=request_ticket(prompt, decision),
            plan=plan,
            requirements=requirements_of(prompt, decision),
            analysis=NEW_PROJECT,
            assignment=Assignment(file=planned, context=related),
            index=index,
            revision=revision,
            current=files.get(planned.path),
            feedback=review_feedback(review, tests, planned.path, root),
        )
        return await write_file(model, [], state)


async def qa_review(
    model: BaseChatModel,
    prompt: str,
    decision: ManagerDecision,
    plan: Plan,
    files: dict[str, str],
    tests: TestReport | None,
    revision: int,
) -> tuple[Review, int]:
    """QA's verdict on the whole project against the contracts and the request."""
    with tempfile.TemporaryDirectory(prefix="mvp-qa-") as tmp:
        review = make_review(model, Journal())
        update = await review(
            {
                "repo_dir": Path(tmp),
                "ticket": request_ticket(prompt, decision),
                "plan": plan,
                "requirements": requirements_of(prompt, decision),
                "assignments": [Assignment(file=f, context=[]) for f in plan.files],
                "files": {p: FileChange(path=p, content=c) for p, c in files.items()},
                "tests": tests,
                "revision": revision,
            }
        )
    return update["review"], update["tokens"]
