"""Nodes of the planning graph: draft the plan with the model, then check and render it."""

from typing import Any

from langchain_core.language_models import BaseChatModel

from graphs.analysis.index import terms
from graphs.analysis.scan import mentioned_files
from graphs.fences import safe_relative_path
from graphs.node_types import AsyncNode, SyncNode
from graphs.offline import is_offline
from graphs.planning.render import render_plan_markdown
from graphs.planning.state import PlanAnswer, PlanningState
from graphs.prompting import task_prompt
from graphs.schemas import Plan, PlannedFile, TicketContext
from graphs.structured import ask_structured

CANDIDATE_FILES = 40


def ticket_words(state: PlanningState) -> str:
    """The ticket's and the requirements' words, for matching files."""
    ticket: TicketContext = state["ticket"]
    parts = [ticket.summary, ticket.description, ticket.acceptance_criteria or ""]
    requirements = state["requirements"]
    if requirements is not None:
        parts += requirements.requirements + requirements.acceptance_criteria
    return "\n".join(parts)


def candidate_files(files: list[str], text: str, first: list[str], limit: int) -> list[str]:
    """Files for the prompt: those in `first`, then by path words shared with the text."""
    wanted = set(terms(text))
    ranked = sorted(files, key=lambda f: (-len(wanted.intersection(terms(f))), f.count("/"), f))
    return list(dict.fromkeys(first + ranked))[:limit]


def make_draft(model: BaseChatModel) -> AsyncNode[PlanningState]:
    """The node that asks the model for the plan."""

    async def draft(state: PlanningState) -> dict[str, Any]:
        ticket, analysis, requirements = state["ticket"], state["analysis"], state["requirements"]
        text = ticket_words(state)
        mentioned = mentioned_files(text, analysis.files)
        inputs = {
            "ticket": ticket.model_dump(),
            "analysis": analysis.model_dump(
                include={"summary", "languages", "frameworks", "test_command"}
            ),
            "requirements": None
            if requirements is None
            else requirements.model_dump(include={"requirements", "acceptance_criteria"}),
            "mentioned_files": mentioned,
            "candidate_files": candidate_files(analysis.files, text, mentioned, CANDIDATE_FILES),
            "feedback": state["feedback"],
            "version": state["version"],
        }
        system, human = task_prompt(
            "plan", inputs, key=ticket.key, summary=ticket.summary, version=str(state["version"])
        )
        answer, tokens = await ask_structured(model, system, human, PlanAnswer)
        return {"answer": answer, "tokens": tokens}

    return draft


def clean_files(files: list[PlannedFile]) -> tuple[list[PlannedFile], list[str]]:
    """Planned files with safe, unique paths, and a risk line for each one dropped."""
    kept: dict[str, PlannedFile] = {}
    dropped: list[str] = []
    for planned in files:
        path = safe_relative_path(planned.path)
        if path is None:
            dropped.append(f"Dropped a planned path outside the repository: {planned.path!r}")
        elif path not in kept:
            kept[path] = planned.model_copy(update={"path": path})
    return list(kept.values()), dropped


def make_finalise(model: BaseChatModel) -> SyncNode[PlanningState]:
    """The node that checks the drafted plan and renders its markdown."""
    offline = is_offline(model)

    def finalise(state: PlanningState) -> dict[str, Any]:
        answer, ticket = state["answer"], state["ticket"]
        files, dropped = clean_files(answer.files)
        risks = [r.strip() for r in answer.risks if r.strip()] + dropped
        test_plan = [t.strip() for t in answer.test_plan if t.strip()]
        addressed = [a.strip() for a in answer.addresses_feedback if a.strip()]
        markdown = render_plan_markdown(
            key=ticket.key,
            title=ticket.summary,
            version=state["version"],
            summary=answer.summary,
            files=files,
            test_plan=test_plan,
            risks=risks,
            feedback=state["feedback"],
            addresses_feedback=addressed,
            produced_offline=offline,
        )
        plan = Plan(
            version=state["version"],
            summary=answer.summary.strip(),
            files=files,
            test_plan=test_plan,
            risks=risks,
            addresses_feedback=addressed,
            markdown=markdown,
            produced_offline=offline,
            tokens=state.get("tokens", 0),
        )
        return {"plan": plan}

    return finalise
