"""Fake activities registered under the real names, recording every call."""

import asyncio
from collections import defaultdict
from typing import Any

from temporalio import activity
from temporalio.exceptions import ApplicationError

from activities.advisories.check import UNPINNED
from activities.advisories.messages import AdvisoryReport, CheckAdvisoriesInput, CheckedDependency
from activities.messages import (
    AnalyseInput,
    ApproverFacts,
    ApproverLookupInput,
    CommitFilesInput,
    CommitFilesResult,
    DiscordNoticeInput,
    DiscordNoticeResult,
    FetchTicketInput,
    ImplementInput,
    OpenPullRequestInput,
    OpenPullRequestResult,
    PlanInput,
    PostCommentInput,
    PostCommentResult,
    PrepareRepositoryInput,
    PrepareRepositoryResult,
    QuestionsInput,
    RequirementsInput,
    RunTestsInput,
    RunTestsResult,
    SecretFinding,
    TransitionInput,
    TransitionResult,
)
from activities.progress import ProgressReporter
from activities.review.messages import (
    CiFailureReport,
    PostedComment,
    PullRequestCommentInput,
    ReadCiFailureInput,
    RerunJobInput,
    RerunJobResult,
    ReviewReplyInput,
    ReviseInput,
    UpdateFromBaseInput,
    UpdateFromBaseResult,
)
from activities.review.round_messages import (
    CommentJudgement,
    CommitRoundInput,
    CommitRoundResult,
    JudgeCommentsInput,
    JudgeCommentsResult,
)
from graphs.implementation.journal import Progress, TestsOutcome, WorkerOutcome
from graphs.schemas import (
    Analysis,
    CriterionCoverage,
    FileChange,
    Implementation,
    Plan,
    Question,
    QuestionSet,
    Requirements,
    TestReport,
    TicketContext,
)
from integrations.environments.dependency_changes import dependency_changes, is_dependency_file
from integrations.security.advisories import Advisory


class FakeActivities:
    """Canned answers; `calls[name]` holds the inputs each activity received."""

    def __init__(
        self, questions: bool = True, followup_rounds: int = 0, tests_passed: bool | None = None
    ) -> None:
        self.calls: dict[str, list[Any]] = defaultdict(list)
        self.conflicts: list[str] = []  # files update_from_base cannot resolve
        self.revise_gate: asyncio.Event | None = None  # holds revise_pull_request until set
        self.revise_error: str | None = None  # revise_pull_request fails for good with this
        self.revise_unchanged = False  # revise_pull_request finds nothing to change
        self.revise_also: list[str] = []  # files revise_pull_request changes beyond those asked
        self.revise_left_out: list[str] = []  # what revise_pull_request put back
        # What judge_review_comments answers (default: every comment addressed).
        self.judgement: JudgeCommentsResult | None = None
        self.race: str | None = None  # a head someone pushed first, merged in by the next commit
        self.push_conflicts: list[str] = []  # files that commit conflicts with, once
        self.commit_gate: asyncio.Event | None = None  # holds commit_round_changes until set
        self.judge_error: str | None = None  # judge_review_comments fails for good with this
        self.questions = questions
        self.followup_rounds = followup_rounds
        # Whether the implementation graph ran the tests on its changes, and how they did.
        self.tests_passed = tests_passed
        self.criteria: list[CriterionCoverage] = []  # which tests cover the criteria, then
        self.repeat_questions = False  # follow-up rounds ask the first question again
        self.reporter = "alice-1"  # who reported the ticket, as look_up_approver sees it
        self.groups: dict[str, list[str]] = {}  # Jira groups by account id
        # What the credential scan finds in the implementation's push until an approver lets it.
        self.secrets: list[SecretFinding] = []
        self.added_files: list[FileChange] = []  # the implementation changes these files too
        # The index's advisories by `name==version`; a lookup error the index fails with for good.
        self.advisories: dict[str, list[Advisory]] = {}
        self.advisory_error: str | None = None
        self.plan_answer = ""  # the plan answers the ticket's question with this, planning no file
        # What read_ci_failure answers for a check's name, in turn (then a failing test).
        self.ci_reports: dict[str, list[CiFailureReport]] = defaultdict(list)
        self.rerun_refused = ""  # why GitHub refuses every rerun_ci_job ("": it reruns)

    def said(self) -> dict[str, list[str]]:
        """What the ticket posted on Jira, Discord and GitHub, and where it moved the issue, as
        `tests.support.notices.check_row` takes it."""
        github = [c.body for c in self.calls["open_pull_request"]]
        github += [c.body for c in self.calls["comment_on_pull_request"]]
        github += [c.body for c in self.calls["reply_to_review_comment"]]
        return {
            "jira": [c.body for c in self.calls["post_jira_comment"]],
            "discord": [c.content for c in self.calls["notify_discord"]],
            "github": github,
            "moved": [c.status for c in self.calls["transition_jira_issue"]],
        }

    def all(self) -> list[Any]:
        """Every fake, for the worker."""
        return [
            self.fetch_jira_ticket,
            self.post_jira_comment,
            self.transition_jira_issue,
            self.look_up_approver,
            self.open_pull_request,
            self.notify_discord,
            self.prepare_repository,
            self.commit_files,
            self.run_tests,
            self.check_dependency_advisories,
            self.analyse_codebase,
            self.generate_questions,
            self.refine_requirements,
            self.generate_plan,
            self.implement_changes,
            self.read_ci_failure,
            self.rerun_ci_job,
            self.comment_on_pull_request,
            self.reply_to_review_comment,
            self.revise_pull_request,
            self.update_from_base,
            self.commit_round_changes,
            self.judge_review_comments,
        ]

    @activity.defn(name="fetch_jira_ticket")
    async def fetch_jira_ticket(self, inp: FetchTicketInput) -> TicketContext:
        self.calls["fetch_jira_ticket"].append(inp)
        return TicketContext(key=inp.key, summary="Add power", description="Add power(a, b).")

    @activity.defn(name="post_jira_comment")
    async def post_jira_comment(self, inp: PostCommentInput) -> PostCommentResult:
        self.calls["post_jira_comment"].append(inp)
        return PostCommentResult(comment_id=str(len(self.calls["post_jira_comment"])))

    @activity.defn(name="transition_jira_issue")
    async def transition_jira_issue(self, inp: TransitionInput) -> TransitionResult:
        self.calls["transition_jira_issue"].append(inp)
        return TransitionResult(moved=True)

    @activity.defn(name="look_up_approver")
    async def look_up_approver(self, inp: ApproverLookupInput) -> ApproverFacts:
        self.calls["look_up_approver"].append(inp)
        theirs = self.groups.get(inp.author_ids[0], [])
        return ApproverFacts(
            is_reporter=self.reporter in inp.author_ids,
            member_of=[g for g in inp.groups if g in theirs],
        )

    @activity.defn(name="open_pull_request")
    async def open_pull_request(self, inp: OpenPullRequestInput) -> OpenPullRequestResult:
        self.calls["open_pull_request"].append(inp)
        return OpenPullRequestResult(number=7, url="http://forge/demo/calc/pull/7", draft=inp.draft)

    @activity.defn(name="notify_discord")
    async def notify_discord(self, inp: DiscordNoticeInput) -> DiscordNoticeResult:
        self.calls["notify_discord"].append(inp)
        return DiscordNoticeResult(sent=True)

    @activity.defn(name="prepare_repository")
    async def prepare_repository(self, inp: PrepareRepositoryInput) -> PrepareRepositoryResult:
        self.calls["prepare_repository"].append(inp)
        return PrepareRepositoryResult(branch=f"ticketsmith/{inp.key}-add-power", head_sha="abc")

    @activity.defn(name="commit_files")
    async def commit_files(self, inp: CommitFilesInput) -> CommitFilesResult:
        self.calls["commit_files"].append(inp)
        plan = all(f.path.startswith(".ticketsmith/") for f in inp.files)
        if self.secrets and not plan and inp.approved_secrets != self.secrets:
            details = [f.model_dump() for f in self.secrets]
            raise ApplicationError("Nothing was pushed", details, type="SecretsFound",
                                   non_retryable=True)  # fmt: skip
        return CommitFilesResult(sha=f"sha{len(self.calls['commit_files'])}", changed=True)

    @activity.defn(name="run_tests")
    async def run_tests(self, inp: RunTestsInput) -> RunTestsResult:
        self.calls["run_tests"].append(inp)
        return RunTestsResult(passed=True, exit_code=0, output="3 passed")

    @activity.defn(name="check_dependency_advisories")
    async def check_dependency_advisories(self, inp: CheckAdvisoriesInput) -> AdvisoryReport:
        self.calls["check_dependency_advisories"].append(inp)
        if self.advisory_error is not None:
            raise ApplicationError(
                self.advisory_error, type="AdvisoryIndexUnavailable", non_retryable=True
            )
        after = {c.path: c.content for c in inp.changes if is_dependency_file(c.path)}
        found = dependency_changes(dict.fromkeys(after, ""), after)  # new files on the base
        known = self.advisories
        checked = [
            CheckedDependency(
                change=c,
                advisories=known.get(f"{c.name}=={c.version}", []),
                unchecked="" if c.version else UNPINNED,
            )
            for c in found
        ]
        return AdvisoryReport(dependencies=checked)

    @activity.defn(name="analyse_codebase")
    async def analyse_codebase(self, inp: AnalyseInput) -> Analysis:
        self.calls["analyse_codebase"].append(inp)
        return Analysis(
            summary="A calculator.",
            languages=["python"],
            frameworks=["pytest"],
            test_command="python -m pytest -q",
            files=["calc/operations.py"],
            tokens=10,
        )

    @activity.defn(name="generate_questions")
    async def generate_questions(self, inp: QuestionsInput) -> QuestionSet:
        self.calls["generate_questions"].append(inp)
        if not self.questions:
            return QuestionSet(questions=[], clear=True, tokens=5)
        question = Question(text="Negative exponents?", why="Changes the return type.")
        return QuestionSet(questions=[question], clear=False, tokens=5)

    @activity.defn(name="refine_requirements")
    async def refine_requirements(self, inp: RequirementsInput) -> Requirements:
        self.calls["refine_requirements"].append(inp)
        round_number = len(self.calls["refine_requirements"])
        followups = []
        if round_number <= self.followup_rounds:
            followups = [Question(text=f"Follow-up {round_number}?", why="Still open.")]
            if self.repeat_questions:  # a small model asking what was answered already
                followups = [Question(text=" negative exponents? ", why="Again."), *followups]
        return Requirements(
            requirements=["power(a, b)", *inp.answers],
            acceptance_criteria=["tests"],
            followup_questions=followups,
            tokens=3,
        )

    @activity.defn(name="generate_plan")
    async def generate_plan(self, inp: PlanInput) -> Plan:
        self.calls["generate_plan"].append(inp)
        return Plan(
            version=inp.version,
            summary=f"Plan {inp.version}",
            files=[],
            test_plan=["unit tests"],
            risks=[],
            addresses_feedback=list(inp.feedback),
            markdown=f"# Plan v{inp.version}\n" + "\n".join(inp.feedback),
            tokens=7,
            answer=self.plan_answer,
        )

    @activity.defn(name="implement_changes")
    async def implement_changes(self, inp: ImplementInput) -> Implementation:
        self.calls["implement_changes"].append(inp)
        change = FileChange(path="calc/operations.py", content="def power(a, b):\n    ...\n")
        changes = [change, *self.added_files]
        if self.tests_passed is None:
            return Implementation(changes=changes, notes="done", tokens=20)
        passed = self.tests_passed
        output = "5 passed" if passed else "1 failed, 4 passed"
        return Implementation(
            changes=changes, notes="done", tokens=20, tests_passed=passed, qa_passed=True,
            test_output=output, criteria=self.criteria,
            last_tests=TestReport(passed=passed, exit_code=0 if passed else 1, output=output),
        )  # fmt: skip

    @activity.defn(name="read_ci_failure")
    async def read_ci_failure(self, inp: ReadCiFailureInput) -> CiFailureReport:
        self.calls["read_ci_failure"].append(inp)
        if self.ci_reports[inp.name]:
            return self.ci_reports[inp.name].pop(0)
        return CiFailureReport(text=f"{inp.name}: tests/test_ops.py::test_power FAILED")

    @activity.defn(name="rerun_ci_job")
    async def rerun_ci_job(self, inp: RerunJobInput) -> RerunJobResult:
        self.calls["rerun_ci_job"].append(inp)
        return RerunJobResult(requested=not self.rerun_refused, refused=self.rerun_refused)

    @activity.defn(name="comment_on_pull_request")
    async def comment_on_pull_request(self, inp: PullRequestCommentInput) -> PostedComment:
        self.calls["comment_on_pull_request"].append(inp)
        return PostedComment(comment_id=len(self.calls["comment_on_pull_request"]))

    @activity.defn(name="reply_to_review_comment")
    async def reply_to_review_comment(self, inp: ReviewReplyInput) -> PostedComment:
        self.calls["reply_to_review_comment"].append(inp)
        return PostedComment(comment_id=1000 + len(self.calls["reply_to_review_comment"]))

    @activity.defn(name="revise_pull_request")
    async def revise_pull_request(self, inp: ReviseInput) -> Implementation:
        self.calls["revise_pull_request"].append(inp)
        if self.revise_gate is not None:
            await self.revise_gate.wait()
        if self.revise_error is not None:
            raise ApplicationError(self.revise_error, type="ModelAnswerError", non_retryable=True)
        paths = [] if self.revise_unchanged else inp.paths or ["calc/operations.py"]
        paths = [*paths, *self.revise_also]
        changes = [
            FileChange(path=p, content=f"# round {len(self.calls['revise_pull_request'])}\n")
            for p in paths
        ]
        return Implementation(
            changes=changes, notes="fixed", tokens=4, left_out=self.revise_left_out
        )

    @activity.defn(name="update_from_base")
    async def update_from_base(self, inp: UpdateFromBaseInput) -> UpdateFromBaseResult:
        self.calls["update_from_base"].append(inp)
        return UpdateFromBaseResult(merged=False, unresolved=list(self.conflicts))

    @activity.defn(name="commit_round_changes")
    async def commit_round_changes(self, inp: CommitRoundInput) -> CommitRoundResult:
        self.calls["commit_round_changes"].append(inp)
        if self.commit_gate is not None:
            await self.commit_gate.wait()
        if self.push_conflicts:
            unresolved, self.push_conflicts = self.push_conflicts, []
            return CommitRoundResult(sha=None, changed=False, unresolved=unresolved)
        sha = f"sha{len(self.calls['commit_files']) + len(self.calls['commit_round_changes'])}"
        if self.race is None:
            return CommitRoundResult(sha=sha, changed=True, own_shas=[sha])
        theirs, self.race = self.race, None
        merge = f"{sha}-merge"
        return CommitRoundResult(
            sha=merge, changed=True, own_shas=[sha, merge], merged_heads=[theirs],
            tests_passed=True,
        )  # fmt: skip

    @activity.defn(name="judge_review_comments")
    async def judge_review_comments(self, inp: JudgeCommentsInput) -> JudgeCommentsResult:
        self.calls["judge_review_comments"].append(inp)
        if self.judge_error is not None:
            raise ApplicationError(self.judge_error, type="WorkerGone", non_retryable=True)
        if self.judgement is not None:
            return self.judgement
        answers = [
            CommentJudgement(id=c.id, addressed=True, reply="changed as asked")
            for c in inp.comments
        ]
        return JudgeCommentsResult(judgements=answers, tokens=2)


class ProgressReportingActivities(FakeActivities):
    """The fakes, with an implementation that signals its progress as the real one does."""

    @activity.defn(name="implement_changes")
    async def implement_changes(self, inp: ImplementInput) -> Implementation:
        self.calls["implement_changes"].append(inp)
        reporter = ProgressReporter(inp.repo.workflow_id, max_revisions=15, interval=0)
        reporter.started("worker", 1, "calc/operations.py")
        await reporter.send()
        done = Progress(
            workers=[WorkerOutcome(revision=1, path="calc/operations.py", note="", tokens=20)]
        )
        report = TestReport(passed=True, exit_code=0, output="3 passed in 0.1s")
        done.tests.append(TestsOutcome(revision=1, report=report))
        reporter.recorded(done)
        await reporter.send()
        change = FileChange(path="calc/operations.py", content="def power(a, b):\n    ...\n")
        return Implementation(changes=[change], notes="done", tokens=20)
