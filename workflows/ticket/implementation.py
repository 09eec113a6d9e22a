"""The implementation phase as its own workflow: code, tests, commit, pull request, report.

The ticket workflow runs it as a child; it can also be started on its own with an approved plan.
"""

import asyncio

from temporalio import workflow
from temporalio.exceptions import ActivityError, FailureError

with workflow.unsafe.imports_passed_through():
    from activities.advisories.check import AdvisoryActivities
    from activities.advisories.messages import AdvisoryReport, CheckAdvisoriesInput
    from activities.agents import AgentActivities
    from activities.code_host import CodeHostActivities
    from activities.messages import (
        ImplementInput,
        OpenPullRequestInput,
        RepoRef,
        RunTestsInput,
        RunTestsResult,
    )
    from activities.repo import RepoActivities
    from graphs.progress import ImplementationProgress, progress_markdown
    from integrations.environments.dependency_changes import is_dependency_file
    from llm.cost import ModelCost
    from workflows.policies import (
        ADVISORY_RETRY,
        GIT_TIMEOUT,
        HTTP_RETRY,
        HTTP_TIMEOUT,
        LLM_HEARTBEAT,
        LLM_RETRY,
        LLM_TIMEOUT,
        TEST_RETRY,
        TEST_TIMEOUT,
    )
    from workflows.ticket import texts
    from workflows.ticket.messages import Implementation, ImplementationInput, ImplementationResult
    from workflows.ticket.outbox import Outbox
    from workflows.ticket.secret_approval import SECRETS_APPROVAL, findings_in_words, secrets_in

# A pull request whose tests pass but do not show the acceptance criteria met opens as a draft.
UNPROVEN_CRITERIA_DRAFT = "draft-untested-criteria"
# The project's Discord channel hears when the pull request opens, as Jira does.
NOTIFY_PULL_REQUEST = "notify-pull-request"
# A change that adds or moves a dependency has its new versions' advisories looked up; a known
# vulnerability makes the pull request a draft.
DEPENDENCY_ADVISORIES = "dependency-advisories"


@workflow.defn(name="ImplementationWorkflow")
class ImplementationWorkflow:
    """Implements an approved plan and opens the pull request; never claims untested success."""

    def __init__(self) -> None:
        self._progress: ImplementationProgress | None = None

    @workflow.signal(name="report_progress")
    def report_progress(self, progress: ImplementationProgress) -> None:
        """The implementation activity's progress, when this workflow runs on its own."""
        if self._progress is None or progress.sequence > self._progress.sequence:
            self._progress = progress
            workflow.set_current_details(progress_markdown(progress))

    @workflow.query
    def progress(self) -> ImplementationProgress | None:
        """The implementation's latest progress, if any was reported here."""
        return self._progress

    @workflow.run
    async def run(self, inp: ImplementationInput) -> ImplementationResult:
        """Implement, test, commit and push, open the pull request, comment, move, notify."""
        outbox = Outbox(inp.key, inp.project.jira_project, inp.project.tracker_name)
        parent = workflow.info().parent
        repo = RepoRef(
            workflow_id=parent.workflow_id if parent else workflow.info().workflow_id,
            repository=inp.project.repository,
            clone_url=inp.project.clone_url,
            branch=inp.branch,
            base_branch=inp.project.base_branch,
        )
        workflow.set_current_details(f"Implementing plan v{inp.plan.version} of {inp.key}")
        if inp.implemented is not None:
            return await self._deliver(inp, repo, outbox, inp.implemented)
        implementation = await workflow.execute_activity_method(
            AgentActivities.implement_changes,
            ImplementInput(
                repo=repo, ticket=inp.ticket, plan=inp.plan, requirements=inp.requirements,
                analysis=inp.analysis, test_command=inp.project.test_command,
                setup_command=inp.project.setup_command,
                run_checks=inp.project.instruction_checks, finish_by=inp.finish_by,
            ),
            task_queue=inp.agent_task_queue,
            start_to_close_timeout=LLM_TIMEOUT,
            heartbeat_timeout=LLM_HEARTBEAT,
            retry_policy=LLM_RETRY,
            summary="Implement the plan",
        )  # fmt: skip
        return await self._deliver(inp, repo, outbox, implementation)

    async def _deliver(
        self, inp: ImplementationInput, repo: RepoRef, outbox: Outbox,
        implementation: Implementation,
    ) -> ImplementationResult:  # fmt: skip
        """Test (unless the implementation just did), commit and push, open the pull request and
        say so; a push the credential scan holds back comes back with its findings instead."""
        # The implementation graph's last test run was of exactly these changes on the branch.
        last = implementation.last_tests if implementation.changes else None
        if workflow.patched("tests-from-implementation") and last is not None:
            tests = RunTestsResult.model_validate(last.model_dump())
        else:
            tests = await workflow.execute_activity_method(
                RepoActivities.run_tests,
                RunTestsInput(
                    repo=repo,
                    changes=implementation.changes,
                    test_command=inp.project.test_command,
                    setup_command=inp.project.setup_command,
                ),
                start_to_close_timeout=TEST_TIMEOUT,
                heartbeat_timeout=LLM_HEARTBEAT,
                retry_policy=TEST_RETRY,
                summary=f"Run `{inp.project.test_command}`",
            )
        head_sha = None
        if implementation.changes:
            message = f"{inp.key}: {inp.ticket.summary}"
            try:
                head_sha = await outbox.commit(
                    repo, implementation.changes, message, inp.approved_secrets
                )
            except ActivityError as err:
                found = secrets_in(err)
                # Run on its own, nobody could approve them: it fails saying where they are.
                if (
                    not found
                    or not workflow.info().parent
                    or not workflow.patched(SECRETS_APPROVAL)
                ):
                    raise
                workflow.set_current_details(f"Nothing pushed: {findings_in_words(found)}")
                return ImplementationResult(
                    pr_url="", draft=True, tests_passed=tests.passed, tokens=implementation.tokens,
                    cost=implementation.cost,
                    secrets_found=found, implementation=implementation,
                )  # fmt: skip
        draft = (
            implementation.produced_offline
            or not implementation.changes
            or not tests.passed
            or implementation.qa_passed is False
        )
        reason = texts.unproven(implementation)
        if not draft and reason and workflow.patched(UNPROVEN_CRITERIA_DRAFT):
            draft = True  # passing tests that test none of the ticket's criteria prove little
        else:
            reason = ""
        writes_dependencies = any(is_dependency_file(c.path) for c in implementation.changes)
        advisories = None
        if writes_dependencies and workflow.patched(DEPENDENCY_ADVISORIES):
            advisories = await self._check_advisories(repo, implementation)
        vulnerable = texts.vulnerable_reason(advisories)
        draft = draft or bool(vulnerable)
        summary = texts.tests_summary(tests.passed, tests.exit_code, tests.output, tests)
        note = texts.tests_note(tests)
        pr = await workflow.execute_activity_method(
            CodeHostActivities.open_pull_request,
            OpenPullRequestInput(
                repository=repo.repository,
                head=repo.branch,
                base=repo.base_branch,
                title=f"{inp.key}: {inp.ticket.summary}",
                body=texts.pull_request_body(
                    inp.ticket,
                    inp.plan,
                    implementation,
                    summary,
                    reason,
                    advisories,
                    inp.usage,
                    inp.project.closes_issue,
                ),
                draft=draft,
            ),
            start_to_close_timeout=HTTP_TIMEOUT,
            retry_policy=HTTP_RETRY,
            summary="Open the pull request",
        )
        workflow.set_current_details(f"Pull request: {pr.url}")
        why = texts.draft_reason(implementation, tests, reason, vulnerable) if draft else ""
        said = [
            outbox.comment(
                "pull-request",
                texts.pr_comment(pr.url, pr.draft, tests.passed, implementation, note, vulnerable),
            ),
            outbox.transition("In Review"),
        ]
        if workflow.patched(NOTIFY_PULL_REQUEST):
            said.append(outbox.notify(texts.pr_notice(inp.key, pr.url, tests, why)))
        await asyncio.gather(*said)
        return ImplementationResult(
            pr_url=pr.url,
            draft=pr.draft,
            tests_passed=tests.passed,
            tokens=implementation.tokens if inp.implemented is None else 0,
            cost=implementation.cost if inp.implemented is None else ModelCost(),
            tests_note=note,
            pr_number=pr.number,
            head_sha=head_sha,
            draft_reason=why,
        )

    async def _check_advisories(
        self, repo: RepoRef, implementation: Implementation
    ) -> AdvisoryReport:
        """The advisories of the dependency versions the change brings; a lookup that fails after
        its retries is said in the pull request, and the ticket goes on."""
        try:
            return await workflow.execute_activity_method(
                AdvisoryActivities.check_dependency_advisories,
                CheckAdvisoriesInput(repo=repo, changes=implementation.changes),
                start_to_close_timeout=GIT_TIMEOUT,
                retry_policy=ADVISORY_RETRY,
                summary="Look up the advisories of the changed dependencies",
            )
        except ActivityError as err:
            cause = err.cause
            return AdvisoryReport(
                failure=cause.message if isinstance(cause, FailureError) else str(err)
            )
