"""Nodes of the planning graph: draft the plan with the model, then check and render it."""

from collections.abc import Sequence
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.tools import BaseTool

from graphs.analysis.index import terms
from graphs.analysis.scan import mentioned_files
from graphs.analysis.tools import CONTEXT_QUERY, FIND_DEFINITION, find_tool, snippet_paths
from graphs.node_types import AsyncNode, SyncNode
from graphs.offline import is_offline
from graphs.planning.definitions import (
    look_up_definitions,
    place_contracts,
)
from graphs.planning.existing_tests import keep_existing_tests
from graphs.planning.manifests import without_unasked_manifests
from graphs.planning.named import called_in, contract_name, on_named_functions
from graphs.planning.packages import into_modules
from graphs.planning.paths import is_test_path, resolve_paths
from graphs.planning.render import render_plan_markdown
from graphs.planning.settled import without_settled
from graphs.planning.spelled import with_spelled_functions
from graphs.planning.state import (
    ContractAnswer,
    PlanAnswer,
    PlannedFileAnswer,
    PlanningState,
    plan_answer_schema,
)
from graphs.schemas import Analysis, Contract, Plan, PlannedFile, Requirements, TicketContext
from llm.fences import safe_relative_path
from llm.prompting import task_prompt
from llm.structured import ModelAnswerError, ask_structured, trim

CANDIDATE_FILES = 40
RELATED_SNIPPETS = 4
FALLBACK_FILES = 3
FALLBACK_NOTE = (
    "This plan was built from the requirements and the files the analysis found, because the "
    "model's plan could not be read ({reason}). Check its files before approving."
)


def ticket_words(state: PlanningState) -> str:
    """The ticket's and the requirements' words, for matching files."""
    return ticket_words_of(state["ticket"], state["requirements"])


def ticket_words_of(ticket: TicketContext, requirements: Requirements | None) -> str:
    """The words of a ticket and its requirements."""
    parts = [ticket.summary, ticket.description, ticket.acceptance_criteria or ""]
    if requirements is not None:
        parts += requirements.requirements + requirements.acceptance_criteria
    return "\n".join(parts)


def candidate_files(files: list[str], text: str, first: list[str], limit: int) -> list[str]:
    """Files for the prompt: those in `first`, then by path words shared with the text."""
    wanted = set(terms(text))
    ranked = sorted(files, key=lambda f: (-len(wanted.intersection(terms(f))), f.count("/"), f))
    return list(dict.fromkeys(first + ranked))[:limit]


def previous_brief(previous: Plan | None) -> dict[str, Any] | None:
    """The parts of the previous plan version the architect revises."""
    if previous is None:
        return None
    return previous.model_dump(include={"version", "summary", "files", "contracts", "test_plan"})


def make_locate(tools: Sequence[BaseTool]) -> AsyncNode[PlanningState]:
    """The node that finds, through `find_definition` if given, the files that define the
    functions the drafted contracts and the ticket name."""
    tool = find_tool(tools, FIND_DEFINITION)

    async def locate(state: PlanningState) -> dict[str, Any]:
        answer = state["answer"]
        names = [contract_name(c) for c in answer.contracts]
        names += called_in(asked_text(state["ticket"]))
        return {"defined_in": await look_up_definitions(tool, names)}

    return locate


def asked_text(ticket: TicketContext) -> str:
    """What the reporter wrote: summary, description and acceptance criteria."""
    return f"{ticket.summary}\n{ticket.description}\n{ticket.acceptance_criteria or ''}"


def make_gather(tools: Sequence[BaseTool]) -> AsyncNode[PlanningState]:
    """The node that retrieves code related to the ticket through `context_query`, if given."""
    tool = find_tool(tools, CONTEXT_QUERY)

    async def gather(state: PlanningState) -> dict[str, Any]:
        if tool is None:
            return {"related_code": ""}
        query = ticket_words(state)
        text = await tool.ainvoke({"query": query, "limit": RELATED_SNIPPETS})
        return {"related_code": str(text)}

    return gather


REQUIREMENT_FIELDS = {"requirements", "acceptance_criteria", "answers"}


def make_draft(model: BaseChatModel) -> AsyncNode[PlanningState]:
    """The node that asks the model for the plan."""

    async def draft(state: PlanningState) -> dict[str, Any]:
        ticket, analysis, requirements = state["ticket"], state["analysis"], state["requirements"]
        text = ticket_words(state)
        mentioned = mentioned_files(text, analysis.files)
        candidates = candidate_files(analysis.files, text, mentioned, CANDIDATE_FILES)
        inputs = {
            "ticket": ticket.model_dump(),
            "analysis": analysis.model_dump(
                include={"summary", "languages", "frameworks", "test_command"}
            ),
            "requirements": None
            if requirements is None
            else requirements.model_dump(include=REQUIREMENT_FIELDS),
            "mentioned_files": mentioned,
            "candidate_files": candidates,
            "feedback": state["feedback"],
            "version": state["version"],
            "previous_version": previous_brief(state.get("previous")),
            "related_code": state.get("related_code") or None,
        }
        if analysis.instructions:  # only then: prompts without them stay as they were
            inputs["repository_instructions"] = analysis.instructions
        system, human = task_prompt(
            "plan", inputs, key=ticket.key, summary=ticket.summary, version=str(state["version"])
        )
        before = state.get("tokens", 0)  # the triage's, when it asked
        revised = bool(state["feedback"]) or state.get("previous") is not None
        schema = plan_answer_schema(question="?" in asked_text(ticket), revised=revised)
        try:
            asked, tokens = await ask_structured(model, system, human, schema)
        except ModelAnswerError as err:  # a plan from what is known beats a failed ticket
            reason = trim(str(err).split(" Raw answer:", 1)[0], 300)
            fallback = fallback_plan(ticket, analysis, requirements, candidates)
            return {"answer": fallback, "fallback": reason, "tokens": before + err.tokens}
        answer = PlanAnswer.model_validate(asked.model_dump())
        return {"answer": answer, "tokens": before + tokens}

    return draft


def fallback_plan(
    ticket: TicketContext,
    analysis: Analysis,
    requirements: Requirements | None,
    candidates: list[str],
) -> PlanAnswer:
    """A plan without the model: the requirements, on the files the ticket names or the
    analysis ranks first, tested by the acceptance criteria."""
    mentioned = mentioned_files(ticket_words_of(ticket, requirements), analysis.files)
    sources = [f for f in candidates if not is_test_path(f)]
    files = (mentioned or sources)[:FALLBACK_FILES]
    wanted = requirements.requirements if requirements else []
    criteria = requirements.acceptance_criteria if requirements else []
    if not criteria and ticket.acceptance_criteria:
        criteria = [c for c in ticket.acceptance_criteria.splitlines() if c.strip()]
    summary = ticket.summary.strip() + (": " + "; ".join(wanted[:3]) if wanted else ".")
    return PlanAnswer(
        summary=summary,
        files=[
            PlannedFileAnswer(path=f, action="modify", purpose="Make the change the ticket asks.")
            for f in files
        ],
        test_plan=criteria or ["Run the repository's tests."],
        risks=[],
    )


def clean_files(
    files: Sequence[PlannedFile | PlannedFileAnswer],
) -> tuple[list[PlannedFile], list[str]]:
    """Planned files with safe, unique paths, and a risk line for each one dropped."""
    kept: dict[str, PlannedFile] = {}
    dropped: list[str] = []
    for planned in files:
        path = safe_relative_path(planned.path)
        if path is None:
            dropped.append(f"Dropped a planned path outside the repository: {planned.path!r}")
        elif path not in kept:
            kept[path] = PlannedFile(path=path, action=planned.action, purpose=planned.purpose)
    return list(kept.values()), dropped


def clean_contracts(contracts: Sequence[Contract | ContractAnswer]) -> list[Contract]:
    """Contracts with a signature, safe paths and no duplicates."""
    kept: dict[tuple[str, str], Contract] = {}
    for contract in contracts:
        path = safe_relative_path(contract.path) or ""
        signature = contract.signature.strip()
        if signature and (path, signature) not in kept:
            kept[(path, signature)] = Contract(
                path=path, signature=signature, behaviour=contract.behaviour.strip()
            )
    return list(kept.values())


def plan_differences(
    previous: Plan, files: list[PlannedFile], contracts: list[Contract]
) -> list[str]:
    """What changed between the previous plan and this one, told from files and contracts."""
    before = {f.path: f for f in previous.files}
    after = {f.path: f for f in files}
    lines = [f"Added `{p}` ({after[p].action})." for p in after if p not in before]
    lines += [f"Dropped `{p}`." for p in before if p not in after]
    lines += [
        f"`{p}`: {before[p].action} -> {after[p].action}."
        for p in after
        if p in before and before[p].action != after[p].action
    ]
    old = {c.signature for c in previous.contracts}
    new = {c.signature for c in contracts}
    lines += [f"New contract: `{c}`." for c in sorted(new - old)]
    lines += [f"Contract removed: `{c}`." for c in sorted(old - new)]
    return lines or ["No file or contract changed; see the summary and the test plan."]


def make_finalise(model: BaseChatModel) -> SyncNode[PlanningState]:
    """The node that checks the drafted plan and renders its markdown."""
    offline = is_offline(model)

    def finalise(state: PlanningState) -> dict[str, Any]:
        ticket = state["ticket"]
        asked = asked_text(ticket)
        defined_in = state.get("defined_in", {})
        answer, renamed = on_named_functions(state["answer"], asked)
        answer, respelled = with_spelled_functions(answer, asked, defined_in)
        renamed += respelled
        files, dropped = clean_files(answer.files)
        requirements = state["requirements"]
        reporter = "\n".join(requirements.answers) if requirements is not None else ""
        told = f"{asked}\n{reporter}"
        related = snippet_paths(state.get("related_code") or "")
        files, resolved, moved = resolve_paths(files, state["analysis"].files, related, told)
        files, kept_tests, kept = keep_existing_tests(files, state["analysis"].files, told)
        files, packaging = without_unasked_manifests(files, told)
        dropped += resolved + kept + packaging
        fallback = state.get("fallback")
        noted = [FALLBACK_NOTE.format(reason=fallback)] if fallback else []
        settled = [] if requirements is None else requirements.answered_questions
        own = without_settled([r.strip() for r in answer.risks if r.strip()], settled)
        risks = noted + own + dropped + renamed
        test_plan = [t.strip() for t in answer.test_plan if t.strip()]
        addressed = [a.strip() for a in answer.addresses_feedback if a.strip()]
        contracts = [
            c.model_copy(update={"path": moved.get(c.path, c.path)})
            for c in clean_contracts(answer.contracts)
        ]
        files, contracts, placed = place_contracts(files, contracts, defined_in, told)
        files, contracts, folded = into_modules(files, contracts, defined_in, told)
        placed += folded
        risks += placed
        # An answer counts only when the model planned no file: a change is never turned into one.
        reply = "" if answer.files else answer.answer.strip()
        previous = state.get("previous")
        changes: list[str] = []
        if previous is not None:
            changes = [c.strip() for c in answer.changes_since_previous if c.strip()]
            changes = changes or plan_differences(previous, files, contracts)
        markdown = render_plan_markdown(
            fallback_note=noted[0] if noted else "",
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
            contracts=contracts,
            changes_since_previous=changes,
            previous_version=None if previous is None else previous.version,
            instructions=state["analysis"].instruction_files,
            answer=reply,
        )
        plan = Plan(
            instructions_followed=state["analysis"].instruction_files,
            version=state["version"],
            summary=answer.summary.strip(),
            files=files,
            test_plan=test_plan,
            risks=risks,
            addresses_feedback=addressed,
            contracts=contracts,
            changes_since_previous=changes,
            markdown=markdown,
            produced_offline=offline,
            tokens=state.get("tokens", 0),
            fallback=fallback or "",
            kept_tests=kept_tests,
            answer=reply,
        )
        return {"plan": plan}

    return finalise
