"""What the ticket workflow writes on Jira, Discord and the pull request, the advisories of the
dependencies a change brings included (pure functions)."""

import re

from activities.advisories.messages import AdvisoryReport, CheckedDependency
from activities.messages import RunTestsResult
from integrations.security.advisories import Advisory
from llm.cost import ModelCost
from workflows.ticket.messages import Implementation, PhaseUsage, Plan, Question, TicketContext

SAFE_LINK = re.compile(r"https://[^\s()<>\[\]]+")
OFFLINE_PR_NOTE = (
    "**Draft: a language model is needed to write the code.** This run used the offline "
    "model, which does not write code; the branch holds the approved plan only. Give the "
    "worker a model, either the local one (`make local-model`: no account, no key) or "
    "`OPENAI_API_KEY` (or `OPENAI_BASE_URL` for any OpenAI-compatible server), and restart "
    "the ticket to have the code written."
)


def questions_comment(questions: list[Question], offline: bool) -> str:
    """The Jira comment that asks the clarifying questions."""
    lines = ["### Questions before planning", ""]
    for number, question in enumerate(questions, start=1):
        lines.append(f"{number}. {question.text} (why: {question.why})")
    lines += ["", "Reply with a comment holding your answers (or `starter.py answer KEY ...`)."]
    if offline:
        lines += ["", "_These questions were produced offline, without a language model._"]
    return "\n".join(lines)


ANSWERED = "Answered without a code change; no pull request was opened."


def answer_comment(plan: Plan, approver: str | None) -> str:
    """The Jira comment that answers a ticket needing no code change, the model's answer
    quoted as what it is."""
    approved = f"Plan v{plan.version} was approved by {approver}: this" if approver else "This"
    lines = [
        "### Answered: no code change",
        "",
        f"{approved} ticket is a question that needs no code change, so ticketsmith answers it "
        "here and opens no pull request. The answer, as the model gave it:",
        "",
    ]
    lines += [f"> {line}".rstrip() for line in plan.answer.strip().splitlines()]
    lines += ["", "If a change is wanted after all, say so and restart the ticket with "
              "`starter.py KEY --restart`."]  # fmt: skip
    return "\n".join(lines)


def plan_changes(plan: Plan, previous: Plan) -> list[str]:
    """What changed between two plan versions, file by file."""
    before = {f.path: f for f in previous.files}
    after = {f.path: f for f in plan.files}
    changes = [f"adds `{path}` ({after[path].action})" for path in after if path not in before]
    changes += [f"drops `{path}`" for path in before if path not in after]
    changes += [
        f"changes what it does to `{path}`"
        for path in after
        if path in before and after[path] != before[path]
    ]
    if plan.test_plan != previous.test_plan:
        changes.append("revises the test plan")
    if plan.summary != previous.summary:
        changes.append("revises the approach")
    changes += [c for c in getattr(plan, "changes_since_previous", []) if c not in changes]
    return changes or ["no change to the files or tests: the wording only"]


def plan_comment(
    plan: Plan, previous: Plan | None, feedback: list[str], branch: str, plan_path: str
) -> str:
    """The Jira comment that presents plan version N for review."""
    parts = [plan.markdown, ""]
    if previous is not None:
        parts += [f"### Changes since v{previous.version}", ""]
        parts += [f"- {change}" for change in plan_changes(plan, previous)]
        parts += ["", f"It addresses this feedback on v{previous.version}: {feedback[-1]}", ""]
    parts += [
        "---",
        f"The plan is committed as `{plan_path}` on branch `{branch}`. "
        "Comment `/approve` to go ahead or `/reject <what to change>`.",
    ]
    return "\n".join(parts)


def unproven(implementation: Implementation) -> str:
    """Why passing tests do not show the acceptance criteria are met ("" when they do)."""
    criteria = implementation.criteria
    untested = [item for item in criteria if item.test is None]
    if untested:
        return f"no test exercises {len(untested)} of the {len(criteria)} acceptance criteria"
    if criteria and not any(item.added and item.passed for item in criteria):
        return (
            "the only tests that exercise the acceptance criteria were in the repository"
            " before the change"
        )
    return ""


def unproven_note(reason: str) -> str:
    """Why a pull request whose tests pass is still a draft."""
    return (
        f"**Draft: the tests pass, but {reason} (listed below).** Add those tests, or mark it"
        " ready for review once you have checked them by hand."
    )


def pull_request_body(
    ticket: TicketContext,
    plan: Plan,
    implementation: Implementation,
    tests: str,
    unproven_reason: str = "",
    advisories: AdvisoryReport | None = None,
    usage: list[PhaseUsage] | None = None,
    closes_issue: str | None = None,
) -> str:
    """The pull request description: plan, changes, the new dependencies' advisories, the
    real test result and, given the phases before, what each phase's model calls cost; a
    GitHub issue it closes is named with GitHub's closing keyword."""
    parts = [f"Resolves {ticket.key}: {ticket.summary}", ""]
    if closes_issue:
        parts += [f"Fixes {closes_issue}", ""]
    if implementation.produced_offline or not implementation.changes:
        parts += [
            OFFLINE_PR_NOTE
            if implementation.produced_offline
            else "**Draft: no code changes were produced.**",
            "",
        ]
    elif unproven_reason:
        parts += [unproven_note(unproven_reason), ""]
    if vulnerable := vulnerable_reason(advisories):
        parts += [vulnerable_note(vulnerable), ""]
    parts += [f"## Plan (version {plan.version})", "", plan.summary, ""]
    if implementation.changes:
        parts += ["## Changes", ""]
        parts += [f"- `{change.path}`" for change in implementation.changes]
        parts.append("")
    parts += advisories_section(advisories)
    if implementation.qa_verdict:
        verdict = "passed" if implementation.qa_passed else "did not pass"
        parts += [
            f"## Review ({verdict}, {implementation.revisions} revisions)",
            "",
            implementation.qa_verdict,
            "",
        ]
    if implementation.notes:
        parts += ["## Notes", "", implementation.notes, ""]
    if implementation.criteria:
        parts += ["## Acceptance criteria", "", *criteria_lines(implementation), ""]
    parts += ["## Tests", "", *test_account(implementation), tests]
    if usage is not None:
        parts += ["", *cost_section(usage, implementation)]
    return "\n".join(parts)


def cost_section(before: list[PhaseUsage], implementation: Implementation) -> list[str]:
    """Each phase's model tokens, in and out, and their cost, as a markdown table."""
    rows = [(u.phase.value, u.tokens, u.cost) for u in before]
    rows.append(("implementation", implementation.tokens, implementation.cost))
    total = ModelCost()
    for _, _, cost in rows:
        total = total.plus(cost)
    rows.append(("total", sum(tokens for _, tokens, _ in rows), total))
    lines = ["## Model cost", "", "| phase | tokens | in | out | cost |", "|---|--:|--:|--:|--:|"]
    lines += [
        f"| {name} | {tokens:,} | {cost.input_tokens:,} | {cost.output_tokens:,} | {cost.short()} |"
        for name, tokens, cost in rows
    ]
    return lines + ([f"\nCost: {total.text()}"] if total.unpriced_tokens else [])


def criteria_lines(implementation: Implementation) -> list[str]:
    """Each acceptance criterion with the test that exercises it, or saying none does."""
    lines = []
    for item in implementation.criteria:
        if item.test is None:
            lines.append(f"- {item.criterion} (no test covers it)")
        else:
            outcome = "passes" if item.passed else "fails"
            lines.append(f"- {item.criterion} (covered by `{item.test}`, which {outcome})")
    return lines


def test_account(implementation: Implementation) -> list[str]:
    """The repository's own tests apart from those written for the change, and what fails."""
    i = implementation
    if not (i.own_tests_passed or i.own_tests_failed or i.new_tests_passed or i.new_tests_failed):
        return []
    lines = [
        f"Revision {i.best_revision} (the best by tests passed): the repository's own tests"
        f" {i.own_tests_passed} passed, {i.own_tests_failed} failed; tests written for this"
        f" change {i.new_tests_passed} passed, {i.new_tests_failed} failed.",
        "",
    ]
    if i.failing_tests:
        lines += ["What fails:", "", *(f"- `{f}`" for f in i.failing_tests), ""]
    return lines


def tests_summary(
    passed: bool, exit_code: int, output: str, run: RunTestsResult | None = None
) -> str:
    """A short account of the test run, with the tail of its output."""
    if run is not None and run.environment_error:
        return f"The tests could not run.\n\n{run.environment_error}"
    verdict = "passed" if passed else f"failed (exit code {exit_code})"
    if run is not None and run.limit:
        verdict = f"was stopped by the sandbox's {run.limit} limit"
    tail = "\n".join(output.strip().splitlines()[-20:])
    return f"The test command {verdict}.\n\n```\n{tail}\n```"


def tests_note(run: RunTestsResult) -> str:
    """What a reader of the result must know beyond pass or fail ("" when nothing)."""
    notes = []
    if run.environment_error:
        notes.append(run.environment_error)
    elif run.limit:
        notes.append(f"The test run was stopped by the sandbox's {run.limit} limit.")
    if run.environment and not run.sandboxed:
        notes.append("The tests ran unsandboxed (TICKETSMITH_SANDBOX=none).")
    return "\n\n".join(notes)


def draft_reason(
    implementation: Implementation,
    tests: RunTestsResult,
    unproven_reason: str,
    vulnerable: str = "",
) -> str:
    """Why the pull request opens as a draft, in a few words."""
    if implementation.produced_offline:
        return "the offline model writes no code, so the branch holds the plan only"
    if not implementation.changes:
        return "the implementation produced no changes"
    if tests.environment_error or tests.limit or not tests.passed:
        first = "the tests do not pass"
    elif implementation.qa_passed is False:
        first = "QA did not pass the change"
    else:
        first = unproven_reason
    return "; ".join(r for r in (first, vulnerable) if r) or "a person should check it first"


def tests_verdict(tests: RunTestsResult) -> str:
    """The test run in one sentence, for a notice."""
    if tests.environment_error:
        return "The tests could not run: their environment did not build."
    if tests.limit:
        return f"The test run was stopped by the sandbox's {tests.limit} limit."
    if tests.passed:
        return "The tests pass."
    return f"The tests fail (exit code {tests.exit_code})."


def pr_notice(key: str, url: str, tests: RunTestsResult, draft_why: str) -> str:
    """The Discord notice when the pull request opens: ready for review, or a draft and why."""
    if not draft_why:
        return f"{key}: pull request ready for review: {url}. {tests_verdict(tests)}"
    return f"{key}: draft pull request opened: {url}. {tests_verdict(tests)} Draft: {draft_why}."


def pr_comment(
    url: str,
    draft: bool,
    passed: bool,
    implementation: Implementation,
    note: str = "",
    vulnerable: str = "",
) -> str:
    """The Jira comment that announces the pull request; passing tests claim nothing alone."""
    kind = "Draft pull request" if draft else "Pull request"
    if not implementation.changes:
        why = (
            "the offline model writes none"
            if implementation.produced_offline
            else "the implementation produced no changes"
        )
        text = f"{kind} opened: {url}. No code was written ({why}); the branch holds the plan."
        return text + (f"\n\n{note}" if note else "")
    files = len(implementation.changes)
    verdict = "the tests pass" if passed else "the tests do not pass yet"
    text = f"{kind} opened: {url}. It changes {files} file{'s' * (files != 1)} and {verdict}."
    reason = unproven(implementation)
    if draft and passed and reason:
        text += f" It is a draft: {reason}."
    if draft and vulnerable:
        text += f" It is a draft: {vulnerable}."
    criteria = criteria_lines(implementation)
    if criteria:
        text += "\n\nAcceptance criteria:\n" + "\n".join(criteria)
    return text + (f"\n\n{note}" if note else "")


def vulnerable_reason(report: AdvisoryReport | None) -> str:
    """Why known vulnerabilities make the pull request a draft ("" when none are known)."""
    if report is None:
        return ""
    return "; ".join(
        f"{d.change.name} {d.change.version} has known vulnerabilities: "
        + ", ".join(_advisory_name(a) for a in d.advisories)
        for d in report.vulnerable
    )


def _advisory_name(advisory: Advisory) -> str:
    fixed = f" (fixed in {', '.join(advisory.fixed_in)})" if advisory.fixed_in else ""
    return f"{advisory.id}{fixed}"


def vulnerable_note(reason: str) -> str:
    """The pull request's opening line when a dependency version has known vulnerabilities."""
    return (
        f"**Draft: {reason}.** Move to a fixed version, or mark it ready for review once you"
        " have judged the advisories (listed below)."
    )


def advisories_section(report: AdvisoryReport | None) -> list[str]:
    """The "Dependency advisories" section: each dependency added or moved and what the index
    knows of its new version, or why it was not checked (no lines when none changed)."""
    if report is None or not (report.dependencies or report.failure):
        return []
    lines = ["## Dependency advisories", ""]
    if report.failure:
        lines += [
            f"The advisories could not be checked ({report.failure}): check the new versions"
            " by hand.",
            "",
        ]
    if report.dependencies:
        checked = not report.failure
        lines += [*(_dependency_line(d, checked) for d in report.dependencies), ""]
    return lines


def _dependency_line(dependency: CheckedDependency, checked: bool) -> str:
    change = dependency.change
    what = f"`{change.name} {change.version}`" if change.version else f"`{change.requirement}`"
    if change.previous and change.version:
        what += f" (was {change.previous})"
    where = f" in `{change.path}`" if change.path else ""
    if dependency.unchecked:
        return f"- {what}{where}: not checked, {dependency.unchecked}"
    if not checked:
        return f"- {what}{where}"
    if not dependency.advisories:
        return f"- {what}{where}: no known vulnerabilities"
    found = "; ".join(_advisory_line(a) for a in dependency.advisories)
    return f"- {what}{where}: {found}"


def _advisory_line(advisory: Advisory) -> str:
    """The advisory's id (linked), fixed versions and summary; the index's words stay in a code
    span, so that no markup, link or mention in them takes effect."""
    text = _advisory_name(advisory)
    if SAFE_LINK.fullmatch(advisory.link):
        text = f"[{advisory.id}]({advisory.link}){text.removeprefix(advisory.id)}"
    summary = " ".join(advisory.summary.replace("`", "'").split())
    return f"{text}: `{summary}`" if summary else text
