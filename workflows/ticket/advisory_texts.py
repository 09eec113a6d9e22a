"""What the pull request says about the dependency versions a change brings (pure functions)."""

import re

from activities.advisories.messages import AdvisoryReport, CheckedDependency
from integrations.advisories import Advisory

SAFE_LINK = re.compile(r"https://[^\s()<>\[\]]+")


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
