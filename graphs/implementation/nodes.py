"""Nodes of the implementation graph: supervisor, one worker per file, join."""

from typing import Any, Literal

from langchain_core.language_models import BaseChatModel
from langgraph.types import Send

from graphs.analysis.graph import index_repository
from graphs.fences import find_file_block, safe_relative_path
from graphs.implementation.files import choose_window, read_current, same_text, splice
from graphs.implementation.prompt import worker_messages
from graphs.implementation.state import Assignment, ImplementationState, WorkerState
from graphs.node_types import AsyncNode, SyncNode
from graphs.offline import OFFLINE_NOTICE, is_offline
from graphs.schemas import FileChange, Implementation
from graphs.structured import message_tokens

CONTEXT_SNIPPETS = 2


def supervisor(state: ImplementationState) -> dict[str, Any]:
    """Hand out one assignment per safe, distinct planned file, with related code."""
    index = index_repository(state["repo_dir"])
    assignments: list[Assignment] = []
    notes: list[str] = []
    seen: set[str] = set()
    for planned in state["plan"].files:
        path = safe_relative_path(planned.path)
        if path is None:
            notes.append(f"{planned.path}: skipped, the path is outside the repository")
            continue
        if path in seen:
            continue
        seen.add(path)
        query = f"{path} {planned.purpose}"
        related = [s for s in index.context_query(query, k=CONTEXT_SNIPPETS + 1) if s.path != path]
        file = planned.model_copy(update={"path": path})
        assignments.append(Assignment(file=file, context=related[:CONTEXT_SNIPPETS]))
    return {"assignments": assignments, "notes": notes}


async def fan_out(state: ImplementationState) -> list[Send] | Literal["join"]:
    """One worker per assignment, all in parallel; straight to join when there is none."""
    if "assignments" not in state:
        raise ValueError("fan_out ran before the supervisor made the assignments")
    if not state["assignments"]:
        return "join"
    shared = {
        "repo_dir": state["repo_dir"],
        "ticket": state["ticket"],
        "plan": state["plan"],
        "requirements": state["requirements"],
    }
    return [Send("worker", {**shared, "assignment": a}) for a in state["assignments"]]


def make_worker(model: BaseChatModel) -> AsyncNode[WorkerState]:
    """The node that asks the model for the whole new content of one file."""

    async def worker(state: WorkerState) -> dict[str, Any]:
        planned = state["assignment"]["file"]
        path = planned.path
        target = state["repo_dir"] / path
        if planned.action == "delete":
            if target.is_file():
                return {
                    "changes": [FileChange(path=path, content="", delete=True)],
                    "notes": [f"{path}: deleted"],
                }
            return {"notes": [f"{path}: planned for deletion but does not exist"]}
        current = read_current(target)
        if current is None:
            return {"notes": [f"{path}: unchanged, it is a binary file"]}
        window = choose_window(current, f"{planned.purpose} {state['plan'].summary}")
        messages = worker_messages(state, window, current)
        answer = await model.ainvoke(messages)
        tokens = message_tokens(answer, messages)
        new_text = find_file_block(answer.text, path)
        if new_text is None:
            return {"notes": [f"{path}: unchanged, the answer had no code block"], "tokens": tokens}
        if not new_text.strip():
            return {"notes": [f"{path}: unchanged, the answer was empty"], "tokens": tokens}
        content = splice(current, window, new_text)
        if same_text(current, content):
            return {"notes": [f"{path}: unchanged"], "tokens": tokens}
        verb = "created" if not current else "rewritten"
        return {
            "changes": [FileChange(path=path, content=content)],
            "notes": [f"{path}: {verb}"],
            "tokens": tokens,
        }

    return worker


def make_join(model: BaseChatModel) -> SyncNode[ImplementationState]:
    """The node that collects the workers' changes, in plan order, into one Implementation."""
    offline = is_offline(model)

    def join(state: ImplementationState) -> dict[str, Any]:
        order = {a["file"].path: i for i, a in enumerate(state.get("assignments", []))}
        changes = sorted(state.get("changes", []), key=lambda c: order.get(c.path, len(order)))
        planned = len(order)
        lines = [f"Changed {len(changes)} of {planned} planned files."]
        if offline:
            lines.insert(
                0,
                f"{OFFLINE_NOTICE}: no code was written. A language model is needed to write"
                " the code.",
            )
        lines += [f"- {note}" for note in sorted(state.get("notes", []))]
        implementation = Implementation(
            changes=changes,
            notes="\n".join(lines),
            produced_offline=offline,
            tokens=state.get("tokens", 0),
        )
        return {"implementation": implementation}

    return join
