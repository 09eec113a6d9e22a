"""The offline model's answers: heuristics and templates, each labelled as produced offline."""

import json
import re
from collections.abc import Callable
from typing import Any

from graphs.offline_notice import OFFLINE_NOTICE as OFFLINE_NOTICE  # where callers look for it
from graphs.schemas import LIST_MARKER
from llm.fences import fence, find_file_block

MAX_QUESTIONS = 3
MAX_STATEMENTS = 30
_OPEN_WORDS = re.compile(r"\b(open|unclear|tbd|tbc|undecided|unknown)\b|\?", re.IGNORECASE)


def answer_task(task: str | None, inputs: dict[str, Any], human: str) -> str:
    """The offline answer to one task's prompt."""
    handler = _HANDLERS.get(task or "")
    if handler is None and (task or "").startswith("research_"):
        from graphs.research.offline import HANDLERS  # the research graph's own tasks

        handler = HANDLERS.get(task or "")
    if handler is None:
        return f"{OFFLINE_NOTICE}: the offline model has no answer for task {task!r}."
    return handler(inputs, human)


def statements(text: str | None) -> list[str]:
    """The non-empty lines of a text, bullet markers removed, otherwise verbatim."""
    lines = (LIST_MARKER.sub("", line).strip() for line in (text or "").splitlines())
    return [line for line in lines if line and not line.startswith("#")]


def _analysis(inputs: dict[str, Any], human: str) -> str:
    languages = ", ".join(inputs.get("languages") or []) or "no recognised language"
    frameworks = ", ".join(inputs.get("frameworks") or []) or "none detected"
    test_command = inputs.get("test_command")
    tests = f"tests run with `{test_command}`" if test_command else "no test command detected"
    summary = (
        f"{OFFLINE_NOTICE}: a repository of {inputs.get('file_count', 0)} files in {languages}; "
        f"frameworks: {frameworks}; {tests}."
    )
    return json.dumps({"summary": summary})


def _questions(inputs: dict[str, Any], human: str) -> str:
    ticket = inputs.get("ticket") or {}
    description = ticket.get("description") or ""
    questions: list[dict[str, str]] = []
    has_criteria = bool((ticket.get("acceptance_criteria") or "").strip()) or bool(
        re.search(r"acceptance criteria", description, re.IGNORECASE)
    )
    if not has_criteria:
        questions.append(
            {
                "text": f"[offline] What are the acceptance criteria for {ticket.get('key', '')}:"
                f' how will we know that "{ticket.get("summary", "")}" is done?',
                "why": f"{OFFLINE_NOTICE}: the ticket states no acceptance criteria.",
            }
        )
    open_points = [s for s in _sentences(description) if _OPEN_WORDS.search(s)]
    if open_points:
        questions.append(
            {
                "text": f'[offline] The ticket leaves this open: "{open_points[0]}". How should it'
                " be resolved, and which edge cases must be handled?",
                "why": f"{OFFLINE_NOTICE}: the description marks a point as open or unclear.",
            }
        )
    if len(description.split()) < 12:
        questions.append(
            {
                "text": "[offline] Could you describe the expected behaviour in more detail:"
                " inputs, outputs and errors?",
                "why": f"{OFFLINE_NOTICE}: the description is very short.",
            }
        )
    questions = questions[:MAX_QUESTIONS]
    return json.dumps({"questions": questions, "clear": not questions})


def _requirements(inputs: dict[str, Any], human: str) -> str:
    ticket = inputs.get("ticket") or {}
    requirements = [ticket.get("summary", ""), *statements(ticket.get("description"))]
    criteria = statements(ticket.get("acceptance_criteria"))
    for item in inputs.get("answered_questions") or []:
        answer = (item.get("answer") or "").strip()
        if not answer:
            continue
        requirements.append(answer)
        question = item.get("question") or ""
        if not criteria and "acceptance criteria" in question.lower():
            criteria = statements(answer)
    requirements = [r for r in requirements if r][:MAX_STATEMENTS]
    return json.dumps(
        {"requirements": requirements, "acceptance_criteria": criteria[:MAX_STATEMENTS]}
    )


def _plan(inputs: dict[str, Any], human: str) -> str:
    ticket = inputs.get("ticket") or {}
    analysis = inputs.get("analysis") or {}
    requirements = inputs.get("requirements") or {}
    files = [
        {
            "path": path,
            "action": "modify",
            "purpose": f"Named in the ticket; change it so that: {ticket.get('summary', '')}",
        }
        for path in inputs.get("mentioned_files") or []
    ]
    test_command = analysis.get("test_command")
    test_plan = [
        f"Run `{test_command}` and check that it passes."
        if test_command
        else "No test command was detected; set one in the project configuration."
    ]
    criteria = requirements.get("acceptance_criteria") or statements(
        ticket.get("acceptance_criteria")
    )
    test_plan += [f"Check the acceptance criterion: {c}" for c in criteria[:8]]
    risks = [
        f"{OFFLINE_NOTICE}: this plan is a template built from the ticket and the repository"
        " scan, not a design.",
        "A language model is needed to write the code: offline, the implementation step"
        " changes no files.",
    ]
    if not files:
        risks.append(
            "No file named in the ticket was found in the repository; a reviewer or a language"
            " model must choose the files."
        )
    answer = {
        "summary": f"{OFFLINE_NOTICE}: a template plan for {ticket.get('key', '')},"
        f' "{ticket.get("summary", "")}". A language model is needed to write the code.',
        "files": files,
        "test_plan": test_plan,
        "risks": risks,
        "addresses_feedback": [
            f"Recorded but not acted on (offline, no language model): {item}"
            for item in inputs.get("feedback") or []
        ],
    }
    return json.dumps(answer)


def _triage(inputs: dict[str, Any], human: str) -> str:
    asks_for = f"{OFFLINE_NOTICE}: no judgement without a language model; planned as a change."
    return json.dumps({"asks_for": asks_for, "needs_change": True, "answer": ""})


def _implement_file(inputs: dict[str, Any], human: str) -> str:
    path = str(inputs.get("path", ""))
    current = find_file_block(human, path, fallback=False) or ""
    return (
        f"{OFFLINE_NOTICE}: no code can be written offline, so `{path}` is returned unchanged."
        f" A language model is needed to write the code.\n\n{fence(path, current)}"
    )


def _acceptance_checks(inputs: dict[str, Any], human: str) -> str:
    return json.dumps({"checks": []})


def _review(inputs: dict[str, Any], human: str) -> str:
    summary = f"{OFFLINE_NOTICE}: the change cannot be reviewed without a language model."
    return json.dumps({"passed": False, "summary": summary, "fixes": []})


_BUILD_WORDS = re.compile(
    r"\b(build|create|make|write|implement|develop|code|program|app|api|mvp|service|tool)\b",
    re.IGNORECASE,
)


def _manager(inputs: dict[str, Any], human: str) -> str:
    request = str(inputs.get("request", ""))
    development = bool(_BUILD_WORDS.search(request))
    reason = (
        f"{OFFLINE_NOTICE}: the request names something to build (a keyword match, not a"
        " judgement). A language model is needed to write the code."
        if development
        else f"{OFFLINE_NOTICE}: the request does not ask for software to be built."
    )
    plan = f"{OFFLINE_NOTICE}: no plan can be made without a language model." if development else ""
    return json.dumps({"development": development, "reason": reason, "plan": plan, "tasks": []})


def _sentences(text: str) -> list[str]:
    """Sentences and lines of a text, trimmed."""
    parts = re.split(r"(?<=[.!?])\s+|\n+", text)
    return [LIST_MARKER.sub("", p).strip() for p in parts if p.strip()]


_HANDLERS: dict[str, Callable[[dict[str, Any], str], str]] = {
    "analysis": _analysis,
    "questions": _questions,
    "requirements": _requirements,
    "triage": _triage,
    "plan": _plan,
    "acceptance_checks": _acceptance_checks,
    "implement_file": _implement_file,
    "review": _review,
    "manager": _manager,
}
