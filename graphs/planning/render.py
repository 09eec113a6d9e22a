"""The plan as markdown: posted to Jira and committed as the plan file."""

from graphs.offline import OFFLINE_NOTICE
from graphs.schemas import PlannedFile

OFFLINE_BANNER = (
    f"> **{OFFLINE_NOTICE}.** This plan is a template built from the ticket and the repository"
    " scan, not a design. A language model is needed to write the code."
)


def _bullets(items: list[str], empty: str) -> list[str]:
    return [f"- {item}" for item in items] if items else [f"_{empty}_"]


def render_plan_markdown(
    *,
    key: str,
    title: str,
    version: int,
    summary: str,
    files: list[PlannedFile],
    test_plan: list[str],
    risks: list[str],
    feedback: list[str],
    addresses_feedback: list[str],
    produced_offline: bool,
) -> str:
    """Markdown for a plan: title, offline banner, summary, files, test plan, risks, feedback."""
    lines = [f"# Plan v{version} for {key}: {title}", ""]
    if produced_offline:
        lines += [OFFLINE_BANNER, ""]
    lines += [summary.strip(), "", "## Files", ""]
    lines += _bullets([f"`{f.path}` ({f.action}): {f.purpose}" for f in files], "No files.")
    lines += ["", "## Test plan", ""] + _bullets(test_plan, "No test plan.")
    lines += ["", "## Risks", ""] + _bullets(risks, "None identified.")
    if feedback:
        addressed = addresses_feedback or [
            f"Feedback received (no specific change reported): {item}" for item in feedback
        ]
        lines += ["", "## Feedback addressed", ""] + _bullets(addressed, "")
    return "\n".join(lines).rstrip() + "\n"
