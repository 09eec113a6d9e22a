"""The plan as markdown: posted to Jira and committed as the plan file."""

from graphs.offline import OFFLINE_NOTICE
from graphs.schemas import Contract, PlannedFile

OFFLINE_BANNER = (
    f"> **{OFFLINE_NOTICE}.** This plan is a template built from the ticket and the repository"
    " scan, not a design. A language model is needed to write the code."
)


NO_CHANGE = "No code change: this ticket is answered"


def quoted(text: str) -> list[str]:
    """Text as a markdown quote, line by line."""
    return [f"> {line}".rstrip() for line in text.strip().splitlines()]


def _bullets(items: list[str], empty: str) -> list[str]:
    return [f"- {item}" for item in items] if items else [f"_{empty}_"]


def _contract(contract: Contract) -> str:
    where = f" in `{contract.path}`" if contract.path else ""
    behaviour = f": {contract.behaviour}" if contract.behaviour else ""
    return f"`{contract.signature}`{where}{behaviour}"


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
    contracts: list[Contract] | None = None,
    changes_since_previous: list[str] | None = None,
    previous_version: int | None = None,
    fallback_note: str = "",
    instructions: list[str] | None = None,
    answer: str = "",
) -> str:
    """Markdown for a plan: title, banner, changes, summary, the answer to a question that
    needs no code change, files, contracts, tests, risks."""
    lines = [f"# Plan v{version} for {key}: {title}", ""]
    if produced_offline:
        lines += [OFFLINE_BANNER, ""]
    if fallback_note:
        lines += [f"> **Built without the model's plan.** {fallback_note}", ""]
    if previous_version is not None:
        lines += [f"## What changed since v{previous_version}", ""]
        lines += _bullets(changes_since_previous or [], "Nothing reported.") + [""]
    lines += [summary.strip(), ""]
    if answer and not files:
        lines += [f"## {NO_CHANGE}", "", *quoted(answer), ""]
    lines += ["## Files", ""]
    lines += _bullets([f"`{f.path}` ({f.action}): {f.purpose}" for f in files], "No files.")
    if contracts:
        lines += ["", "## Interface contracts", ""]
        lines += _bullets([_contract(c) for c in contracts], "")
    lines += ["", "## Test plan", ""] + _bullets(test_plan, "No test plan.")
    lines += ["", "## Risks", ""] + _bullets(risks, "None identified.")
    if instructions:
        named = ", ".join(f"`{name}`" for name in instructions)
        lines += ["", "## Repository instructions", "", f"Follows the repository's {named}."]
    if feedback:
        addressed = addresses_feedback or [
            f"Feedback received (no specific change reported): {item}" for item in feedback
        ]
        lines += ["", "## Feedback addressed", ""] + _bullets(addressed, "")
    return "\n".join(lines).rstrip() + "\n"
