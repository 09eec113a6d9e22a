"""A scripted research model for tests and the bench: a careful reader without a language model.

It plans what it is told to (or everything it is shown), notes every sentence of every
source as a finding, and reports them all, so a report's accuracy measures the system (tools,
retries, merging, citations), not a model.
"""

import json
from typing import Any

from langchain_core.messages import BaseMessage

from graphs.models import ScriptedChatModel
from graphs.research.offline import SECTION_TITLES
from graphs.research.reading import sentences
from graphs.research.state import MAX_CLAIMS, MAX_FINDINGS, MAX_SECTIONS
from llm.prompting import read_task


def _plan(inputs: dict[str, Any], plan: dict[str, list[str]] | None) -> dict[str, Any]:
    if plan is not None:
        return plan
    tickets = inputs.get("tickets_found") or []
    return {
        "ticket_keys": [t["key"] for t in tickets],
        "doc_ids": [d["doc_id"] for d in inputs.get("documents") or []],
        "search_queries": [inputs.get("question", ""), *(t["summary"] for t in tickets[:2])],
    }


def _findings(inputs: dict[str, Any]) -> dict[str, Any]:
    found = [
        {"claim": sentence, "source": source["id"]}
        for source in inputs.get("sources") or []
        for sentence in sentences(source.get("text", ""))
    ]
    return {"findings": found[:MAX_FINDINGS]}


def _report(inputs: dict[str, Any]) -> dict[str, Any]:
    sections = []
    for agent in inputs.get("findings") or []:
        claims = [{"text": f["claim"], "sources": [f["source"]]} for f in agent["findings"]]
        title = SECTION_TITLES.get(agent["agent"], agent["agent"])
        for start in range(0, len(claims), MAX_CLAIMS):
            part = f" ({start // MAX_CLAIMS + 1})" if len(claims) > MAX_CLAIMS else ""
            sections.append({"title": title + part, "claims": claims[start : start + MAX_CLAIMS]})
    first = [s["claims"][0]["sources"][0] for s in sections[:3]]
    summary = f"The report gathers {sum(len(s['claims']) for s in sections)} findings."
    return {"summary": summary, "summary_sources": first, "sections": sections[:MAX_SECTIONS]}


def research_answer(
    task: str | None, inputs: dict[str, Any], plan: dict[str, list[str]] | None = None
) -> str:
    """The scripted reader's answer (JSON) to one research task's inputs."""
    if task == "research_plan":
        return json.dumps(_plan(inputs, plan))
    if task == "research_findings":
        return json.dumps(_findings(inputs))
    if task == "research_report":
        return json.dumps(_report(inputs))
    raise ValueError(f"the research reader has no answer for task {task!r}")


def research_reader(
    plan: dict[str, list[str]] | None = None, calls: int = 10_000
) -> ScriptedChatModel:
    """The scripted reader; `plan` fixes the manager's answer (keys, doc ids, queries)."""

    def answer(messages: list[BaseMessage]) -> str:
        return research_answer(*read_task(messages), plan=plan)

    return ScriptedChatModel([answer] * calls)
