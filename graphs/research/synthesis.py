"""The synthesis agent: the report from every specialist's findings, each claim cited."""

import re
from typing import Any

from langchain_core.language_models import BaseChatModel

from graphs.node_types import AsyncNode
from graphs.research.sources import cite
from graphs.research.state import (
    AgentFindings,
    Report,
    ReportAnswer,
    ReportSection,
    ResearchState,
    Source,
)
from llm.prompting import task_prompt
from llm.structured import ask_structured

# A bracketed citation a model writes inline; not a markdown link (`[text](url)`).
INLINE_CITATION = re.compile(r"\[([^\[\]\n]{1,200})\](?!\()")
# What a citation looks like: a ticket key, a document (with its page) or a URL.
CITATION_LIKE = re.compile(
    r"[A-Z][A-Z0-9_]+-[1-9][0-9]*|[\w.-]+\.[A-Za-z0-9]{1,5}(?: p\.\d+)?|https?://\S+"
)


def render(
    question: str, answer: ReportAnswer, findings: list[AgentFindings], tokens: int
) -> Report:
    """The report: claims citing no known source are left out (and counted); every citation
    left in its text names a source of its Sources list."""
    sources = {s.id: s for f in findings for s in f.sources}
    dropped = 0
    sections = []
    for section in answer.sections:
        lines, used = [], []
        for claim in section.claims:
            cited = known_citations([*claim.sources, *inline_citations(claim.text)], sources)
            if not cited:
                dropped += 1
                continue
            lines.append(f"- {without_citations(claim.text)} {''.join(cite(s) for s in cited)}")
            used += [s for s in cited if s not in used]
        if lines:
            sections.append(
                ReportSection(title=section.title, content="\n".join(lines), sources=used)
            )
    summary_cited = known_citations(
        [*answer.summary_sources, *inline_citations(answer.summary)], sources
    )
    summary_cites = "".join(cite(s) for s in summary_cited)
    summary = f"{without_citations(answer.summary)} {summary_cites}".strip()
    cited_ids = [*summary_cited, *(s for sec in sections for s in sec.sources)]
    read = [sources[s] for s in dict.fromkeys(cited_ids)]
    return Report(
        question=question, summary=summary, sections=sections, sources=read,
        dropped_claims=dropped, tokens=tokens,
    )  # fmt: skip


def inline_citations(text: str) -> list[str]:
    """The citations a model wrote into its own text: `[PAY-2]`, `[contract.pdf p.3]`."""
    found = (match.group(1).strip() for match in INLINE_CITATION.finditer(text))
    return [one for one in found if CITATION_LIKE.fullmatch(one)]


def without_citations(text: str) -> str:
    """The text with the citations it wrote removed: they are put back from known sources."""

    def drop(match: re.Match[str]) -> str:
        return "" if CITATION_LIKE.fullmatch(match.group(1).strip()) else match.group(0)

    return re.sub(r"[ \t]{2,}", " ", INLINE_CITATION.sub(drop, text)).strip()


def known_citations(cited: list[str], sources: dict[str, Source]) -> list[str]:
    """The cited ids that name a source read, in order, once each."""
    return [s for s in dict.fromkeys(cited) if s in sources]


def make_synthesis(model: BaseChatModel) -> AsyncNode[ResearchState]:
    """The node that writes the report."""

    async def synthesis_agent(state: ResearchState) -> dict[str, Any]:
        question = state["question"]
        findings = sorted(state.get("findings") or [], key=lambda f: f.agent)
        inputs = {
            "question": question,
            "findings": [
                {
                    "agent": f.agent,
                    "findings": [x.model_dump() for x in f.findings],
                    "problems": f.problems,
                }
                for f in findings
            ],
        }
        system, human = task_prompt("research_report", inputs, question=question)
        answer, tokens = await ask_structured(model, system, human, ReportAnswer)
        return {"report": render(question, answer, findings, tokens)}

    return synthesis_agent


def report_markdown(report: Report) -> str:
    """The report as markdown: question, summary, sections, then the sources read."""
    lines = [f"# {report.question}", "", report.summary, ""]
    for section in report.sections:
        lines += [f"## {section.title}", "", section.content, ""]
    if report.sources:
        lines += ["## Sources", ""]
        lines += [
            f"- {cite(s.id)} {s.title}{f' <{s.url}>' if s.url else ''}" for s in report.sources
        ]
    return "\n".join(lines).rstrip() + "\n"
