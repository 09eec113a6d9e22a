"""The offline model's research answers: extractive, deterministic, labelled as offline."""

import json
from typing import Any

from graphs.offline_notice import OFFLINE_NOTICE
from graphs.research.reading import sentences, words
from graphs.research.sources import KEY
from graphs.research.state import MAX_CLAIMS, MAX_FINDINGS, MAX_SECTIONS, MAX_TICKETS

PER_SOURCE = 4
SECTION_TITLES = {
    "jira_agent": "Jira tickets",
    "doc_agent": "Documents",
    "pdf_agent": "PDF documents",
    "search_agent": "On the web",
}


def plan(inputs: dict[str, Any], human: str) -> str:
    """Every ticket the search found; documents sharing words with the question or tickets."""
    question = str(inputs.get("question", ""))
    tickets = inputs.get("tickets_found") or []
    keys = [t["key"] for t in tickets] + KEY.findall(question)
    relevant = words(question + " " + " ".join(t.get("summary", "") for t in tickets))
    docs = inputs.get("documents") or []
    chosen = [d["doc_id"] for d in docs if words(f"{d['title']} {d['doc_id']}") & relevant]
    queries = [question] + [t["summary"] for t in tickets[:2]]
    answer = {
        "ticket_keys": list(dict.fromkeys(keys))[:MAX_TICKETS],
        "doc_ids": chosen or [d["doc_id"] for d in docs],
        "search_queries": queries[:3],
    }
    return json.dumps(answer)


def findings(inputs: dict[str, Any], human: str) -> str:
    """Per source, its first sentence and the sentences sharing most words with the question."""
    wanted = words(str(inputs.get("question", "")))
    out = []
    for source in inputs.get("sources") or []:
        found = sentences(source.get("text", ""))
        if not found:
            continue
        ranked = sorted(found[1:], key=lambda s: -len(words(s) & wanted))
        picked = [found[0], *[s for s in ranked if words(s) & wanted][: PER_SOURCE - 1]]
        out += [{"claim": s, "source": source["id"]} for s in sorted(picked, key=found.index)]
    return json.dumps({"findings": out[:MAX_FINDINGS]})


def report(inputs: dict[str, Any], human: str) -> str:
    """One section per agent listing its findings as they are, with an offline summary."""
    sections = []
    count = 0
    for agent in inputs.get("findings") or []:
        claims = [
            {"text": f["claim"], "sources": [f["source"]]} for f in agent.get("findings") or []
        ][:MAX_CLAIMS]
        count += len(claims)
        if claims:
            title = SECTION_TITLES.get(agent.get("agent", ""), agent.get("agent", "Findings"))
            sections.append({"title": title, "claims": claims})
    summary = (
        f"{OFFLINE_NOTICE}: the {count} findings below are quoted from the sources as found, "
        "not weighed; a language model is needed to weigh them and answer the question."
    )
    return json.dumps(
        {"summary": summary, "summary_sources": [], "sections": sections[:MAX_SECTIONS]}
    )


HANDLERS = {"research_plan": plan, "research_findings": findings, "research_report": report}
