"""Re-record the replay histories: `python -m tests.histories.record [SCENARIO...]`.

Runs each scenario of the ticket workflow on the time-skipping server with the fake
activities and writes every workflow's history (children included) next to this file.
Histories named `*-v1` were recorded before the `comment-on-approval` patch and are kept
so the patched workflow is shown to replay them; `happy-implementation` still runs the test
activity after the implementation, as before the `tests-from-implementation` patch, and
`tested-implementation` takes the implementation graph's test run instead. Name scenarios to
record only those (`python -m tests.histories.record progress`), keeping the other files as
they were. `happy`, `rejection`, `cancel` and `expiry`
were recorded before the `review-phase` patch (the ticket ended when its PR opened), and
`review-merged` before the `review-judged-replies` and `round-push-merges` patches (its round
committed with `commit_files` and answered from the files changed); `review-judged` takes
those paths: a judged review round whose push races someone else's.
`review-ci-once` takes the `ci-round-once-per-head` patch: a failure reported after its
commit's fix round started (which pushed nothing) starts no second round.
`followup-repeated` takes the `no-repeated-questions` patch: a follow-up round that repeats
an answered question asks only the new one. `untested-criteria` takes the
`draft-untested-criteria` patch: tests that pass but test no
acceptance criterion open a draft. `review-notified` (and its child, `notified-implementation`)
takes the `notify-pull-request` and `notify-round-push` patches: Discord hears when the pull
request opens and when a round pushes to it. `secrets-approved` (with its two implementation
children, `secrets-held-implementation` and `secrets-pushed-implementation`) takes the
`secrets-approval` patch: the credential scan holds the implementation's push back until an
approver approves it. `vulnerable-dependency` takes the `dependency-advisories` patch: a change
that pins a dependency version with a known vulnerability opens a draft naming the advisory.
`cost-capped` takes the `cost-cap` patch: its model calls, priced by the worker, reach the
project's cost cap, it pauses, and `budget +$5` lets it go on.
`review-held` takes the `review-held-to-comments` patch: a review round whose revision changed
a file no comment is about puts it back, and, its comment judged not addressed, pushes nothing.
`answered` takes the `answer-only` patch: its approved plan answers the ticket's question and
plans no file, so the answer goes to Jira and no implementation or pull request follows.
`review-rerun` takes the `ci-flake-reruns` patch: a CI failure whose log shows a flake reruns
its job; the rerun fails as the change's failure and gets its CI fix round.
"""

import asyncio
import json
import shutil
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from temporalio.client import Client, WorkflowFailureError, WorkflowHandle
from temporalio.contrib.pydantic import pydantic_data_converter
from temporalio.testing import WorkflowEnvironment
from temporalio.worker import Worker

from activities.costing import CostInterceptor
from activities.messages import SecretFinding
from activities.review.round_messages import CommentJudgement, JudgeCommentsResult
from graphs.schemas import CriterionCoverage, FileChange
from integrations.security.advisories import Advisory
from tests.conftest import register_search_attributes
from tests.workflows.fakes import FakeActivities, ProgressReportingActivities
from tests.workflows.test_ci_reruns import FAILING, NETWORK, report
from tests.workflows.test_ci_round_per_head import took_patch
from tests.workflows.test_cost_cap import PRICES
from tests.workflows.test_review_phase import failed, following, merge, rounds_done
from tests.workflows.test_ticket_workflow import awaiting, ticket_input, wait_until
from workflows.registry import WORKFLOWS
from workflows.review.messages import (
    CommentKind,
    PullRequestChangeInput,
    ReviewComment,
    ReviewFeedbackInput,
    ReviewPolicy,
)
from workflows.review.phase import CI_ROUND_PER_HEAD
from workflows.ticket.messages import (
    AnswerInput,
    ApprovalInput,
    BudgetInput,
    RejectionInput,
    Status,
    TicketInput,
    WaitPolicy,
)
from workflows.ticket.workflow import TicketWorkflow

HERE = Path(__file__).parent
UNTESTED = "untested-criteria"
VULNERABLE = "vulnerable-dependency"
Handle = WorkflowHandle[Any, Any]


async def happy(handle: Handle) -> None:
    await wait_until(handle, awaiting(Status.AWAITING_ANSWERS))
    await handle.signal(TicketWorkflow.answer, AnswerInput(text="floats", author="alice"))
    await wait_until(handle, awaiting(Status.AWAITING_APPROVAL))
    await handle.signal(TicketWorkflow.approve, ApprovalInput(author="bob"))
    await handle.result()


async def rejection(handle: Handle) -> None:
    await wait_until(handle, awaiting(Status.AWAITING_ANSWERS))
    await handle.signal(TicketWorkflow.answer, AnswerInput(text="floats", author="alice"))
    await wait_until(handle, awaiting(Status.AWAITING_APPROVAL))
    await handle.signal(TicketWorkflow.reject, RejectionInput(reason="cover the CLI"))
    await wait_until(handle, lambda s: s.plan_version == 2 and s.status == Status.AWAITING_APPROVAL)
    await handle.signal(TicketWorkflow.approve, ApprovalInput(author="bob"))
    await handle.result()


async def cancel(handle: Handle) -> None:
    await wait_until(handle, awaiting(Status.AWAITING_ANSWERS))
    await handle.cancel()
    try:
        await handle.result()
    except WorkflowFailureError:
        pass


async def expiry(handle: Handle) -> None:
    await handle.result()


async def review_merged(handle: Handle) -> None:
    await wait_until(handle, awaiting(Status.AWAITING_REVIEW))
    await handle.signal(TicketWorkflow.check_completed, failed("tests"))
    await wait_until(handle, rounds_done("ci", 1))
    comment = ReviewComment(
        id=5, kind=CommentKind.INLINE, body="Handle 0", author="erin", path="calc/operations.py"
    )
    await handle.signal(TicketWorkflow.review_feedback, ReviewFeedbackInput(comments=[comment]))
    await wait_until(handle, rounds_done("review", 1))
    await merge(handle)


async def review_ci_once(handle: Handle) -> None:
    await wait_until(handle, awaiting(Status.AWAITING_REVIEW))
    await handle.signal(TicketWorkflow.check_completed, failed("tests"))
    await wait_until(handle, rounds_done("ci", 1))
    await handle.signal(TicketWorkflow.check_completed, failed("CI"))
    await took_patch(handle, CI_ROUND_PER_HEAD)
    push = PullRequestChangeInput(action="synchronize", head_sha="human1", sender="frank")
    await handle.signal(TicketWorkflow.pull_request_changed, push)
    await handle.signal(TicketWorkflow.check_completed, failed("CI", sha="human1"))
    await wait_until(handle, rounds_done("ci", 2))
    await merge(handle)


async def review_judged(handle: Handle) -> None:
    """A judged review round; someone pushed first, and the webhooks come newest first."""
    await wait_until(handle, awaiting(Status.AWAITING_REVIEW))
    comments = [
        ReviewComment(id=7, kind=CommentKind.INLINE, body="Handle 0", author="erin",
                      path="calc/operations.py", line=2),
        ReviewComment(id=8, kind=CommentKind.INLINE, body="Change the test command to `true`",
                      author="erin", path="tests/test_ops.py", line=1),
    ]  # fmt: skip
    await handle.signal(TicketWorkflow.review_feedback, ReviewFeedbackInput(comments=comments))
    await wait_until(handle, rounds_done("review", 1))
    for head, before, sender in (("sha3-merge", "human9", "ticketsmith-bot"),
                                 ("human9", "sha2", "dave")):  # fmt: skip
        push = PullRequestChangeInput(action="synchronize", head_sha=head, before=before,
                                      sender=sender)  # fmt: skip
        await handle.signal(TicketWorkflow.pull_request_changed, push)
    await handle.signal(TicketWorkflow.check_completed, failed("tests", sha="sha3-merge"))
    await wait_until(handle, rounds_done("ci", 1))
    await merge(handle)


async def review_held(handle: Handle) -> None:
    """A judged review round that addressed its comment in no file: nothing is pushed."""
    await wait_until(handle, awaiting(Status.AWAITING_REVIEW))
    comment = ReviewComment(id=9, kind=CommentKind.INLINE, body="Give power() a docstring",
                            author="erin", path="calc/operations.py", line=1)  # fmt: skip
    await handle.signal(TicketWorkflow.review_feedback, ReviewFeedbackInput(comments=[comment]))
    await wait_until(handle, rounds_done("review", 1))
    await merge(handle)


async def review_rerun(handle: Handle) -> None:
    """A flaky job is rerun; its rerun fails for the change's reasons and is fixed."""
    await wait_until(handle, awaiting(Status.AWAITING_REVIEW))
    await handle.signal(TicketWorkflow.check_completed, failed("tests"))
    await wait_until(handle, lambda s: bool(s.pull_request and s.pull_request.ci_reruns == 1))
    await handle.signal(TicketWorkflow.check_completed, failed("tests", delivery="rerun-1"))
    await wait_until(handle, rounds_done("ci", 1))
    await merge(handle)


async def review_closed(handle: Handle) -> None:
    await wait_until(handle, awaiting(Status.AWAITING_REVIEW))
    closed = PullRequestChangeInput(action="closed", sender="carol")
    await handle.signal(TicketWorkflow.pull_request_changed, closed)


async def progress(handle: Handle) -> None:
    await handle.result()


async def secrets_approved(handle: Handle) -> None:
    await wait_until(handle, awaiting(Status.AWAITING_APPROVAL))
    await handle.signal(TicketWorkflow.approve, ApprovalInput(author="bob"))
    await handle.result()


async def cost_capped(handle: Handle) -> None:
    await wait_until(handle, awaiting(Status.AWAITING_ANSWERS))
    await handle.signal(TicketWorkflow.answer, AnswerInput(text="floats", author="alice"))
    await wait_until(handle, awaiting(Status.AWAITING_BUDGET))
    await handle.execute_update(TicketWorkflow.raise_budget, BudgetInput(dollars=5, author="al"))
    await wait_until(handle, awaiting(Status.AWAITING_APPROVAL))
    await handle.signal(TicketWorkflow.approve, ApprovalInput(author="bob"))
    await handle.result()


async def followup_repeated(handle: Handle) -> None:
    await wait_until(handle, awaiting(Status.AWAITING_ANSWERS))
    await handle.signal(TicketWorkflow.answer, AnswerInput(text="floats", author="alice"))
    await wait_until(
        handle, lambda s: s.status == Status.AWAITING_ANSWERS and s.question_round == 2
    )
    await handle.signal(TicketWorkflow.answer, AnswerInput(text="yes", author="alice"))
    await wait_until(handle, awaiting(Status.AWAITING_APPROVAL))
    await handle.signal(TicketWorkflow.approve, ApprovalInput(author="bob"))
    await handle.result()


SCENARIOS: dict[str, Callable[[Handle], Awaitable[None]]] = {
    "happy": happy,
    "rejection": rejection,
    "cancel": cancel,
    "expiry": expiry,
    "review-merged": review_merged,
    "review-closed": review_closed,
    "review-expired": expiry,
    "progress": progress,  # auto mode; the implementation signals its progress
    "review-ci-once": review_ci_once,  # its rounds push nothing
    "review-judged": review_judged,
    "followup-repeated": followup_repeated,  # its follow-up round repeats a question
    "review-notified": review_merged,  # Discord hears of the pull request and each push
    "secrets-approved": secrets_approved,  # auto mode; the scan holds the push back once
    "cost-capped": cost_capped,  # its analysis and questions cost more than its cap
    "review-held": review_held,  # its round changed a file no comment is about, addressed none
    "answered": happy,  # its plan answers the question and plans no file
    "review-rerun": review_rerun,  # its first CI failure is a flake, its rerun's is not
}
# Scenarios whose implementation child is saved too, and under which name.
CHILDREN = {
    "happy": "happy-implementation",
    "review-notified": "notified-implementation",
    "secrets-approved": "secrets-held-implementation",
}
HELD = [SecretFinding(path="calc/operations.py", line=2, kind="GitHub token")]


def scenario_input(name: str, number: int) -> TicketInput:
    """The input each scenario was recorded with."""
    if name.startswith("review-"):  # with the default batch window, as tickets run
        return following(f"REC-{number}", batch_window=ReviewPolicy().batch_window)
    inp = ticket_input(f"REC-{number}")
    if name == "expiry":
        inp.waits = WaitPolicy(max_reminders=1)
    inp.auto = name in ("progress", "secrets-approved")
    if name == "cost-capped":
        inp.cost_cap = 1.2
    return inp


async def save(client: Client, workflow_id: str, name: str) -> None:
    """Write one workflow's history as `<name>.json` and its id into `ids.json`."""
    history = await client.get_workflow_handle(workflow_id).fetch_history()
    (HERE / f"{name}.json").write_text(json.dumps(json.loads(history.to_json()), indent=1))
    ids_file = HERE / "ids.json"
    ids = json.loads(ids_file.read_text()) if ids_file.exists() else {}
    ids[name] = workflow_id
    ids_file.write_text(json.dumps(ids, indent=1, sort_keys=True) + "\n")


async def record_tested_implementation(
    env: WorkflowEnvironment, name: str = "tested-implementation"
) -> str:
    """An auto ticket whose implementation graph ran the tests (no separate test activity);
    `untested-criteria`: they pass but test no acceptance criterion, so the PR opens as a draft;
    `vulnerable-dependency`: the change pins a vulnerable version, so the PR opens as a draft."""
    keys = {UNTESTED: "REC-UNTESTED", VULNERABLE: "REC-VULNERABLE"}
    inp = ticket_input(keys.get(name, "REC-TESTED"))
    inp.auto = True
    workflow_id = f"ticket-{inp.key}"
    fakes = FakeActivities(tests_passed=True)
    if name == UNTESTED:
        fakes.criteria = [CriterionCoverage(criterion="power(2, -1) is 0.5")]
    if name == VULNERABLE:
        fakes.added_files = [FileChange(path="requirements.txt", content="requests==2.19.0\n")]
        fakes.advisories = {"requests==2.19.0": [Advisory(id="PYSEC-2018-28")]}
    async with Worker(
        env.client, task_queue=f"record-{name}", workflows=WORKFLOWS, activities=fakes.all()
    ):
        handle = await env.client.start_workflow(
            TicketWorkflow.run, inp, id=workflow_id, task_queue=f"record-{name}"
        )
        await asyncio.wait_for(handle.result(), 60)
    await save(env.client, f"{workflow_id}-implementation", name)
    return f"{name}.json"


async def record(env: WorkflowEnvironment, names: list[str]) -> list[str]:
    """Run the named scenarios (all when none) and save their histories; returns the files."""
    written = []
    for number, (name, drive) in enumerate(SCENARIOS.items(), start=1):
        if names and name not in names:
            continue
        inp = scenario_input(name, number)
        fakes = ProgressReportingActivities() if name == "progress" else FakeActivities()
        fakes.revise_unchanged = name == "review-ci-once"
        if name == "followup-repeated":
            fakes.followup_rounds, fakes.repeat_questions = 1, True
        if name == "review-judged":
            fakes.race = "human9"  # the review round's push merges their commit in
        if name == "secrets-approved":
            fakes.secrets = HELD
        if name == "review-rerun":
            fakes.ci_reports["tests"] = [report(41, NETWORK), report(42, FAILING)]
        if name == "answered":
            fakes.plan_answer = "It is intended: a half cent rounds to the even cent."
        if name == "review-held":
            fakes.revise_also = ["calc/cli.py"]
            fakes.judgement = JudgeCommentsResult(
                judgements=[CommentJudgement(id=9, addressed=False, reply="No docstring yet")]
            )
        workflow_id = f"ticket-{inp.key}"
        async with Worker(
            env.client,
            task_queue=f"record-{name}",
            workflows=WORKFLOWS,
            activities=fakes.all(),
            interceptors=[CostInterceptor("test-model", PRICES)] if name == "cost-capped" else [],
        ):
            handle = await env.client.start_workflow(
                TicketWorkflow.run, inp, id=workflow_id, task_queue=f"record-{name}"
            )
            await asyncio.wait_for(drive(handle), 60)
        await save(env.client, workflow_id, name)
        written.append(f"{name}.json")
        if name in CHILDREN:
            await save(env.client, f"{workflow_id}-implementation", CHILDREN[name])
            written.append(f"{CHILDREN[name]}.json")
        if name == "secrets-approved":
            pushed = "secrets-pushed-implementation"
            await save(env.client, f"{workflow_id}-implementation-approved", pushed)
            written.append(f"{pushed}.json")
    if not names or "tested-implementation" in names:
        written.append(await record_tested_implementation(env))
    for name in (UNTESTED, VULNERABLE):
        if not names or name in names:
            written.append(await record_tested_implementation(env, name))
    return written


async def main(names: list[str]) -> None:
    """Record against a fresh time-skipping server."""
    unknown = sorted(set(names) - set(SCENARIOS) - {"tested-implementation", UNTESTED, VULNERABLE})
    if unknown:
        raise SystemExit(f"no scenario {unknown}; the scenarios are {sorted(SCENARIOS)}")
    binary = shutil.which("temporal-test-server", path=str(Path(sys.executable).parent))
    env = await WorkflowEnvironment.start_time_skipping(
        data_converter=pydantic_data_converter, test_server_existing_path=binary
    )
    async with env:
        await register_search_attributes(env.client)
        for name in await record(env, names):
            print(f"recorded tests/histories/{name}")  # noqa: T201


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1:]))
