"""The synthesis agent: the report from every specialist's findings, each claim cited."""

from typing import Any

from langchain_core.language_models import BaseChatModel

from graphs.node_types import AsyncNode
from graphs.prompting import task_prompt
from graphs.research.sources import cite
from graphs.research.state import AgentFindings, Report, ReportAnswer, ReportSection, ResearchState
from graphs.structured import ask_structured


def render(
    question: str, answer: ReportAnswer, findings: list[AgentFindings], tokens: int
) -> Report:
    """The report: claims citing no known source are left out (and counted)."""
    sources = {s.id: s for f in findings for s in f.sources}
    dropped = 0
    sections = []
    for section in answer.sections:
        lines, used = [], []
        for claim in section.claims:
            cited = [s for s in dict.fromkeys(claim.sources) if s in sources]
            if not cited:
                dropped += 1
                continue
            lines.append(f"- {claim.text.strip()} {''.join(cite(s) for s in cited)}")
            used += [s for s in cited if s not in used]
        if lines:
            sections.append(
                ReportSection(title=section.title, content="\n".join(lines), sources=used)
            )
    summary_cites = "".join(cite(s) for s in dict.fromkeys(answer.summary_sources) if s in sources)
    summary = f"{answer.summary.strip()} {summary_cites}".strip()
    read = [sources[s] for s in dict.fromkeys(s for sec in sections for s in sec.sources)]
    return Report(
        question=question, summary=summary, sections=sections, sources=read,
        dropped_claims=dropped, tokens=tokens,
    )  # fmt: skip


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
