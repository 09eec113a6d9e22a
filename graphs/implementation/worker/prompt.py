"""The prompt a worker sends: ticket, plan, requirements, related code and its file."""

from langchain_core.messages import BaseMessage

from graphs.implementation.state import WorkerState
from graphs.implementation.worker.window import Window, fence_language
from graphs.schemas import Requirements, TicketContext
from llm.fences import fence
from llm.prompting import task_messages
from llm.structured import trim

MAX_PLAN_FILES = 20
MAX_REQUIREMENTS = 15
MAX_CONTRACTS = 10
SNIPPET_CHARS = 800
CRITERIA_CHARS = 1200
ANSWERS_CHARS = 1000
DESCRIPTION_CHARS = 1500


WHOLE_FILE_ANSWER = {
    "answer_rule": (
        "Write the complete new content of the file: every line, not only the changed parts."
        ' Never write diffs, never write placeholders such as "rest unchanged" or "...", and'
        " keep everything the plan does not ask you to change exactly as it is."
    ),
    "answer_content": "its content",
    "answer_example": "src/example.py\n```python\ndef example() -> int:\n    return 1\n```",
}
DEFINITIONS_ANSWER = {
    "answer_rule": (
        "Write only what you add or change: each function, method or class you change or add,"
        " complete from its `def` or `class` line to its last line, and the imports it needs."
        " Each replaces the one of the same name in the file and new ones are added; a method"
        " is written inside its class, `class Name:` with only that method under it. What you"
        " do not write stays exactly as it is, so never repeat unchanged code, and never write"
        ' diffs or placeholders such as "...".'
    ),
    "answer_content": "the code you add or change",
    "answer_example": (
        "src/example.py\n```python\nclass Counter:\n    def reset(self) -> None:\n"
        "        self.count = 0\n```"
    ),
}
OUTSIDE_STAYS = "the lines outside them stay as they are."
DEFINITIONS_SCOPE = "functions, methods and classes you add or change (each complete)"


def criteria_text(ticket: TicketContext, requirements: Requirements | None) -> str:
    """The ticket's own acceptance criteria, as written; else the refined ones."""
    if ticket.acceptance_criteria and ticket.acceptance_criteria.strip():
        return trim(ticket.acceptance_criteria.strip(), CRITERIA_CHARS)
    refined = [] if requirements is None else requirements.acceptance_criteria
    return _bullets(refined[:MAX_REQUIREMENTS], "(none given)")


def answers_text(requirements: Requirements | None) -> str:
    """The reporter's answers as written, or a line saying there are none."""
    given = [] if requirements is None else requirements.answers
    given = list(dict.fromkeys(answer.strip() for answer in given))  # the same answer once
    return trim("\n\n".join(given), ANSWERS_CHARS) if given else "(none given)"


def _bullets(items: list[str], empty: str) -> str:
    return "\n".join(f"- {trim(item, 300)}" for item in items) if items else empty


def window_note(window: Window, current: str, definitions: bool = False) -> str:
    """What part of the file the worker sees and what its answer replaces."""
    if not current:
        return "The file does not exist yet: write it from scratch."
    if window.whole:
        return "Its current content:"
    lines = f"lines {window.start + 1}-{window.end}"
    shown = f"The file has {window.total} lines; you are shown {lines}."
    if definitions:
        return shown
    return f"{shown} Answer with the new content of exactly these lines: {OUTSIDE_STAYS}"


def worker_messages(
    state: WorkerState,
    window: Window,
    current: str,
    *,
    shown_as: str | None = None,
    scope: str | None = None,
    definitions: bool = False,
) -> list[BaseMessage]:
    """The implement_file prompt for one worker; `shown_as` and `scope` replace what it says
    of the file shown and what the answer is, for an ask smaller than the window; with
    `definitions` the answer is the definitions it adds or changes, not the file."""
    ticket, plan, requirements = state["ticket"], state["plan"], state["requirements"]
    assignment = state["assignment"]
    planned = assignment["file"]
    related = "\n\n".join(
        fence(
            f"{s.path} (lines {s.start_line}-{s.end_line})",
            trim(s.text, SNIPPET_CHARS),
            fence_language(s.path),
        )
        for s in assignment["context"]
    )
    inputs = {
        "path": planned.path,
        "action": planned.action,
        "purpose": planned.purpose,
        "revision": state["revision"],
        "window": {
            "start_line": window.start + 1,
            "end_line": window.end,
            "total_lines": window.total,
        },
    }
    analysis = state.get("analysis")
    repository = trim(analysis.summary, 800) if analysis else "(no analysis given)"
    if state.get("instructions"):
        repository += f"\n\n{state['instructions']}"
    contracts = [f"{c.path}: {c.signature}: {c.behaviour}" for c in plan.contracts[:MAX_CONTRACTS]]
    return task_messages(
        "implement_file",
        inputs,
        key=ticket.key,
        summary=ticket.summary,
        description=trim(ticket.description.strip(), DESCRIPTION_CHARS) or "(nothing more)",
        plan_summary=trim(plan.summary, 1000),
        plan_files=_bullets(
            [f"{f.path} ({f.action}): {f.purpose}" for f in plan.files[:MAX_PLAN_FILES]], "-"
        ),
        requirements=_bullets(
            [] if requirements is None else requirements.requirements[:MAX_REQUIREMENTS],
            "(none beyond the plan)",
        ),
        criteria=criteria_text(ticket, requirements),
        answers=answers_text(requirements),
        repository=repository,
        contracts=_bullets(contracts, "(none)"),
        feedback=state["feedback"],
        related=related or "(none)",
        path=planned.path,
        action=planned.action,
        purpose=planned.purpose,
        window_note=shown_as or window_note(window, current, definitions),
        current=fence(planned.path, window.text, fence_language(planned.path)),
        scope=scope or answer_scope(window, definitions),
        **(DEFINITIONS_ANSWER if definitions else WHOLE_FILE_ANSWER),
    )


def answer_scope(window: Window, definitions: bool) -> str:
    """What the worker's answer is, as its prompt's last line names it."""
    if definitions:
        return DEFINITIONS_SCOPE
    return "whole new content" if window.whole else "new content of the lines shown"
