"""The lines `starter.py status` shows about a ticket's pull request: checks and rounds."""

from cli.status.as_json import StatusJson


def review_lines(current: StatusJson) -> list[str]:
    """The pull request's checks and rounds, for `starter.py status`, from the status's JSON."""
    view = current.get("pull_request")
    if view is None:
        return []
    head = (view.get("head_sha") or "?")[:7]
    lines = [f"  pull request #{view['number']}: {view['state']}, head {head}"]
    for check in view.get("checks") or []:
        lines.append(f"    check {check['name']}: {check['conclusion']}")
    ci, review = view.get("ci_rounds", 0), view.get("review_rounds", 0)
    reruns = view.get("ci_reruns", 0)
    lines.append(f"  rounds: {ci} CI fix, {review} review; {reruns} CI reruns")
    for done in view.get("rounds") or []:
        name = "CI rerun" if done["kind"] == "rerun" else f"{done['kind']} round"
        lines.append(f"    {name} {done['number']}: {done['trigger']} -> {done['outcome']}")
    if view.get("waiting_for"):
        lines.append(f"  waiting for: {view['waiting_for']}")
    return lines
