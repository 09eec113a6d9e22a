"""What the review phase writes on the pull request, Jira and Discord (pure functions)."""

from activities.review.messages import FailedJob
from workflows.review.messages import CheckInput, ReviewComment, RoundRecord

OUTSIDER_REPLY = (
    "Thanks for the comment, @{author}. ticketsmith only acts on feedback from the "
    "repository's owners, members and collaborators, so it will not change the code for this "
    "one; a maintainer can ask for it in their own review."
)


def files_list(files: list[str]) -> str:
    """Changed files as a markdown list."""
    return "\n".join(f"- `{path}`" for path in files) or "- (no file changed)"


def ci_round_comment(
    number: int, failures: list[CheckInput], sha: str | None, files: list[str], tests: str,
    note: str = "",
) -> str:  # fmt: skip
    """The comment after a CI fix round: what failed, what changed, what the tests say."""
    names = ", ".join(f"`{f.name}` ({f.conclusion})" for f in failures)
    if sha is None:
        what = "It found no change that fixes it; a person needs to look."
    else:
        what = f"Commit {sha[:7]} changes:\n{files_list(files)}"
    failed = f"Failed on the head commit: {names}.{f' {note}' if note else ''}"
    return f"**CI fix round {number}.** {failed}\n\n{what}\n\n{tests}"


def rerun_comment(jobs: list[FailedJob], sha: str, count: int, limit: int) -> str:
    """The comment when flaky jobs are run again instead of fixed: which, why, how often."""
    lines = [
        f"**CI rerun {count} of {limit}** on {sha[:7]}. What failed looks like a flaky run, "
        "not this change, so ticketsmith asked GitHub Actions to run it again instead of "
        "changing the code:",
        "",
    ]
    for job in jobs:
        said = f" (the log says: `{job.verdict.evidence}`)" if job.verdict.evidence else ""
        lines.append(f"- `{job.name}`: {job.verdict.reason}{said}")
    return "\n".join(lines)


def rerun_refused(reason: str) -> str:
    """What a CI fix round says when GitHub would not rerun a job that looked flaky."""
    return (
        f"What failed looked flaky, but GitHub refused to run it again ({reason[:200]}), so "
        "it is taken as a failure of the change."
    )


def reruns_used_up(names: list[str], limit: int) -> str:
    """What a CI fix round says of jobs that looked flaky but failed past their reruns."""
    jobs = ", ".join(f"`{name}`" for name in names)
    return (
        f"{jobs} looked flaky but failed again after {limit} reruns on this commit, so it is "
        "taken as a failure of the change."
    )


def review_round_comment(
    number: int, comments: list[ReviewComment], sha: str | None, files: list[str], notes: str
) -> str:
    """The comment after a review round: each comment addressed in code or answered."""
    lines = [f"**Review round {number}.**", ""]
    if sha:
        lines += [f"Commit {sha[:7]} changes:", files_list(files), ""]
    for comment in comments:
        lines.append(f"- {comment_reply(comment, sha, files, notes)} (re: comment {comment.id})")
    return "\n".join(lines)


def comment_reply(comment: ReviewComment, sha: str | None, files: list[str], notes: str) -> str:
    """The answer to one comment: the commit that addresses it, or why the code is unchanged."""
    addressed = sha is not None and (comment.path is None or comment.path in files)
    if addressed:
        where = f" in `{comment.path}`" if comment.path else ""
        return f"Addressed in {sha[:7] if sha else ''}{where}."
    why = notes.strip().splitlines()[0] if notes.strip() else "the revision changed nothing here"
    target = f"`{comment.path}`" if comment.path else "the code"
    return f"Not changed in code: {target} was left as it is ({why[:300]})."


def bound_comment(kind: str, limit: int) -> str:
    """The comment once rounds of one kind reached their bound."""
    what = "CI fix" if kind == "ci" else "review"
    return (
        f"ticketsmith has done its {limit} {what} rounds on this pull request and stops "
        "changing it; a person needs to take it from here. It keeps following the pull "
        "request and will close the ticket when it is merged."
    )


def conflict_comment(base: str, files: list[str]) -> str:
    """The comment when the base cannot be merged in without a person."""
    return (
        f"`{base}` moved and conflicts with this branch in {files_list(files)}\n\n"
        "ticketsmith could not resolve this and did not force anything; please resolve the "
        "conflict by hand."
    )


ROUND_NAMES = {"ci": "CI fix round", "review": "review round", "base": "base update"}


def round_notice(key: str, record: RoundRecord, url: str) -> str:
    """The Discord notice when a round pushed to the pull request: which commit, which files."""
    sha = (record.commit or "")[:7]
    files = f", changing {', '.join(record.files)}" if record.files else ""
    name = ROUND_NAMES.get(record.kind, f"{record.kind} round")
    return f"{key}: {name} {record.number} pushed {sha} to {url}{files} ({record.trigger})."


def merged_text(key: str, url: str, done: str, tracker: str = "Jira") -> str:
    """The tracker and Discord, once the pull request is merged (an issue on GitHub has no
    statuses: it is closed)."""
    if tracker == "GitHub":
        return f"Pull request {url} was merged; {key} is done and its issue closed."
    return f"Pull request {url} was merged; {key} is moved to {done}."


def closed_text(key: str, url: str, branch: str | None) -> str:
    """Jira and Discord, once the pull request is closed without merging."""
    left = f" The branch `{branch}` is left as it is." if branch else ""
    return f"Pull request {url} was closed without merging; work on {key} stops.{left}"


def superseded_comment(push: str) -> str:
    """The comment when someone pushed while a round worked on the branch."""
    return (
        f"While ticketsmith was working on this round, {push}. It does not write over other "
        "people's commits: the round is dropped and its work starts again from that commit."
    )


def round_failed_comment(kind: str, cause: str) -> str:
    """The comment when a round could not finish."""
    return (
        f"ticketsmith's {kind} round could not finish: {cause[:500]}\n\nNothing was pushed "
        "by it. It keeps following this pull request; a person may need to look."
    )


def judged_reply(
    comment: ReviewComment, sha: str | None, verdict: tuple[bool, str] | None, fallback: str
) -> str:
    """The answer to one comment from the round's judgement (addressed, reply); the
    file-changed answer `fallback` when there is none."""
    if verdict is None:
        return fallback
    addressed, reply = verdict
    reply = reply.strip().rstrip(".")[:300] or "no reason given"
    if addressed and sha:
        return f"Addressed in {sha[:7]}: {reply}."
    return f"Not done: {reply}."


def unaddressed_reply(reason: str) -> str:
    """The answer to a comment the round did not address: nothing of it was pushed, and why."""
    reason = reason.strip().rstrip(".")[:300] or "no reason given"
    return f"Not addressed, so nothing was pushed for it: {reason}."


ONLY_ELSEWHERE = "the revision changed only what no comment is about"


def left_out_note(parts: list[str]) -> str:
    """What a round left out of its change: files (or definitions in them) the revision
    changed that no comment is about, as markdown ("" when none)."""
    if not parts:
        return ""
    return f" Left out of the round, as no comment is about them: {', '.join(parts)}."


def refused_reply(reason: str) -> str:
    """The answer to a comment that asks for something ticketsmith never does."""
    return f"Not done: {reason}."


def judged_round_comment(number: int, sha: str | None, files: list[str], answers: str) -> str:
    """The comment after a judged review round: the commit, then each comment's answer."""
    lines = [f"**Review round {number}.**", ""]
    if sha:
        lines += [f"Commit {sha[:7]} changes:", files_list(files), ""]
    return "\n".join(lines) + answers


def merged_note(heads: list[str], tests_passed: bool | None) -> str:
    """What the round's push did about commits others pushed meanwhile."""
    if not heads:
        return ""
    shas = ", ".join(h[:7] for h in heads)
    tests = ""
    if tests_passed is not None:
        outcome = "passed" if tests_passed else "failed; a person needs to look"
        tests = f" The tests {outcome} after the merge."
    return (
        f"\n\nSomeone pushed {shas} to the branch while this round pushed; ticketsmith merged "
        f"it in (nothing forced, their commits unchanged).{tests}"
    )


def push_conflict_comment(files: list[str]) -> str:
    """The comment when a round's commit conflicts with what someone pushed meanwhile."""
    return (
        "Someone pushed to the branch while ticketsmith pushed this round's commit, and the "
        f"two conflict in {files_list(files)}\n\nticketsmith pushed nothing and forced nothing; "
        "the round starts again from their commit."
    )
