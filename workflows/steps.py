"""The ticket workflow's steps: every call out is an activity with a timeout and a retry policy."""

import asyncio

from temporalio import workflow

with workflow.unsafe.imports_passed_through():
    from activities.agents import AgentActivities
    from activities.discord import DiscordActivities
    from activities.github import GitHubActivities
    from activities.jira import JiraActivities
    from activities.messages import (
        AnalyseInput,
        CommitFilesInput,
        DiscordNoticeInput,
        FetchTicketInput,
        ImplementInput,
        OpenPullRequestInput,
        PlanInput,
        PostCommentInput,
        PrepareRepositoryInput,
        QuestionsInput,
        RepoRef,
        RequirementsInput,
        RunTestsInput,
        TransitionInput,
    )
    from activities.repo import RepoActivities
    from workflows import texts
    from workflows.messages import (
        Analysis,
        FileChange,
        Plan,
        Question,
        QuestionSet,
        Requirements,
        TicketContext,
        TicketInput,
        TicketStatus,
    )
    from workflows.policies import (
        ANALYSIS_RETRY,
        GIT_RETRY,
        GIT_TIMEOUT,
        HTTP_RETRY,
        HTTP_TIMEOUT,
        LLM_HEARTBEAT,
        LLM_RETRY,
        LLM_TIMEOUT,
        TEST_RETRY,
        TEST_TIMEOUT,
    )

PLAN_DIR = ".ticketsmith"


class TicketSteps:
    """Runs the activities of one ticket and keeps the status current."""

    def __init__(self, inp: TicketInput, status: TicketStatus) -> None:
        self._inp = inp
        self._status = status
        project = inp.project
        self._repo = RepoRef(
            workflow_id=workflow.info().workflow_id,
            repository=project.repository,
            clone_url=project.clone_url,
            branch="",
            base_branch=project.base_branch,
        )

    @property
    def plan_path(self) -> str:
        """Where the plan file lives on the ticket branch."""
        return f"{PLAN_DIR}/{self._inp.key}-plan.md"

    def _tokens(self, used: int) -> None:
        self._status.tokens += used

    async def study(self) -> tuple[TicketContext, Analysis]:
        """Fetch the ticket, prepare the branch and analyse the codebase."""
        ticket = await workflow.execute_activity_method(
            JiraActivities.fetch_jira_ticket,
            FetchTicketInput(key=self._inp.key),
            start_to_close_timeout=HTTP_TIMEOUT,
            retry_policy=HTTP_RETRY,
            summary=f"Fetch {self._inp.key} from Jira",
        )
        prepared = await workflow.execute_activity_method(
            RepoActivities.prepare_repository,
            PrepareRepositoryInput(repo=self._repo, key=ticket.key, summary=ticket.summary),
            start_to_close_timeout=GIT_TIMEOUT,
            retry_policy=GIT_RETRY,
            summary="Prepare the ticket branch",
        )
        self._repo = self._repo.model_copy(update={"branch": prepared.branch})
        self._status.branch = prepared.branch
        analysis = await workflow.execute_activity_method(
            AgentActivities.analyse_codebase,
            AnalyseInput(repo=self._repo, ticket=ticket),
            start_to_close_timeout=LLM_TIMEOUT,
            heartbeat_timeout=LLM_HEARTBEAT,
            retry_policy=ANALYSIS_RETRY,
            summary="Analyse the codebase",
        )
        self._tokens(analysis.tokens)
        return ticket, analysis

    async def ask_questions(self, ticket: TicketContext, analysis: Analysis) -> QuestionSet:
        """Generate clarifying questions and post them, when the ticket leaves anything open."""
        questions = await workflow.execute_activity_method(
            AgentActivities.generate_questions,
            QuestionsInput(ticket=ticket, analysis=analysis),
            start_to_close_timeout=LLM_TIMEOUT,
            heartbeat_timeout=LLM_HEARTBEAT,
            retry_policy=LLM_RETRY,
            summary="Generate clarifying questions",
        )
        self._tokens(questions.tokens)
        self._status.questions = list(questions.questions)
        if questions.questions:
            body = texts.questions_comment(questions.questions, questions.produced_offline)
            await asyncio.gather(
                self.comment("questions", body), self.notify(f"{ticket.key} has questions.")
            )
        return questions

    async def refine(
        self,
        ticket: TicketContext,
        analysis: Analysis,
        questions: list[Question],
        answers: list[str],
    ) -> Requirements:
        """Turn the ticket and its answers into requirements."""
        requirements = await workflow.execute_activity_method(
            AgentActivities.refine_requirements,
            RequirementsInput(
                ticket=ticket, analysis=analysis, questions=questions, answers=answers
            ),
            start_to_close_timeout=LLM_TIMEOUT,
            heartbeat_timeout=LLM_HEARTBEAT,
            retry_policy=LLM_RETRY,
            summary="Refine the requirements",
        )
        self._tokens(requirements.tokens)
        return requirements

    async def plan(
        self,
        ticket: TicketContext,
        analysis: Analysis,
        requirements: Requirements,
        feedback: list[str],
        version: int,
    ) -> Plan:
        """Write plan version N, then commit it and post it to Jira in parallel."""
        plan = await workflow.execute_activity_method(
            AgentActivities.generate_plan,
            PlanInput(
                ticket=ticket,
                analysis=analysis,
                requirements=requirements,
                feedback=feedback,
                version=version,
            ),
            start_to_close_timeout=LLM_TIMEOUT,
            heartbeat_timeout=LLM_HEARTBEAT,
            retry_policy=LLM_RETRY,
            summary=f"Write plan v{version}",
        )
        self._tokens(plan.tokens)
        await asyncio.gather(
            self.commit(
                [FileChange(path=self.plan_path, content=plan.markdown)],
                f"{ticket.key}: plan v{version}",
            ),
            self.comment(
                f"plan-v{version}", texts.plan_comment(plan, self._repo.branch, self.plan_path)
            ),
        )
        self._status.plan_version = version
        self._status.plan_markdown = plan.markdown
        return plan

    async def implement(self, ticket: TicketContext, plan: Plan, requirements: Requirements) -> str:
        """Implement, test, commit and push, open the pull request, report; returns its URL."""
        implementation = await workflow.execute_activity_method(
            AgentActivities.implement_changes,
            ImplementInput(repo=self._repo, ticket=ticket, plan=plan, requirements=requirements),
            start_to_close_timeout=LLM_TIMEOUT,
            heartbeat_timeout=LLM_HEARTBEAT,
            retry_policy=LLM_RETRY,
            summary="Implement the plan",
        )
        self._tokens(implementation.tokens)
        tests = await workflow.execute_activity_method(
            RepoActivities.run_tests,
            RunTestsInput(
                repo=self._repo,
                changes=implementation.changes,
                test_command=self._inp.project.test_command,
            ),
            start_to_close_timeout=TEST_TIMEOUT,
            heartbeat_timeout=LLM_HEARTBEAT,
            retry_policy=TEST_RETRY,
            summary=f"Run `{self._inp.project.test_command}`",
        )
        if implementation.changes:
            await self.commit(implementation.changes, f"{ticket.key}: {ticket.summary}")
        draft = implementation.produced_offline or not implementation.changes or not tests.passed
        summary = texts.tests_summary(tests.passed, tests.exit_code, tests.output)
        pr = await workflow.execute_activity_method(
            GitHubActivities.open_pull_request,
            OpenPullRequestInput(
                repository=self._repo.repository,
                head=self._repo.branch,
                base=self._repo.base_branch,
                title=f"{ticket.key}: {ticket.summary}",
                body=texts.pull_request_body(ticket, plan, implementation, summary),
                draft=draft,
            ),
            start_to_close_timeout=HTTP_TIMEOUT,
            retry_policy=HTTP_RETRY,
            summary="Open the pull request",
        )
        self._status.pr_url = pr.url
        await asyncio.gather(
            self.comment("pull-request", texts.pr_comment(pr.url, pr.draft, tests.passed)),
            self.transition("In Review"),
        )
        await self.notify(f"{ticket.key}: pull request {pr.url}")
        return pr.url

    async def commit(self, files: list[FileChange], message: str) -> None:
        """Commit files to the ticket branch and push."""
        await workflow.execute_activity_method(
            RepoActivities.commit_files,
            CommitFilesInput(repo=self._repo, files=files, message=message),
            start_to_close_timeout=GIT_TIMEOUT,
            retry_policy=GIT_RETRY,
            summary=message,
        )

    async def comment(self, step: str, body: str) -> None:
        """Post a Jira comment once per run and step."""
        info = workflow.info()
        await workflow.execute_activity_method(
            JiraActivities.post_jira_comment,
            PostCommentInput(
                key=self._inp.key, body=body, marker=f"{info.workflow_id}/{info.run_id}/{step}"
            ),
            start_to_close_timeout=HTTP_TIMEOUT,
            retry_policy=HTTP_RETRY,
            summary=f"Comment on Jira: {step}",
        )

    async def transition(self, status: str) -> None:
        """Move the Jira issue."""
        await workflow.execute_activity_method(
            JiraActivities.transition_jira_issue,
            TransitionInput(key=self._inp.key, status=status),
            start_to_close_timeout=HTTP_TIMEOUT,
            retry_policy=HTTP_RETRY,
            summary=f"Move {self._inp.key} to {status}",
        )

    async def notify(self, content: str) -> None:
        """Tell the project's Discord channel."""
        await workflow.execute_activity_method(
            DiscordActivities.notify_discord,
            DiscordNoticeInput(jira_project=self._inp.project.jira_project, content=content),
            start_to_close_timeout=HTTP_TIMEOUT,
            retry_policy=HTTP_RETRY,
            summary="Notify Discord",
        )
