"""Turning tool answers into citable sources, and the citations reports use."""

import re
from typing import Any

from graphs.research.state import Source

KEY = re.compile(r"\b[A-Z][A-Z0-9_]+-[1-9][0-9]*\b")
TEXT_LIMIT = 1500


def ticket_source(ticket: dict[str, Any]) -> Source:
    """A ticket as a source; its first line states type, status and assignee."""
    assignee = ticket.get("assignee") or "nobody"
    head = (
        f"{ticket['key']} ({ticket.get('issue_type') or 'issue'}, status {ticket['status']}, "
        f"assigned to {assignee}): {ticket['summary']}."
    )
    text = f"{head}\n{ticket.get('description') or ''}".strip()
    return Source(
        id=ticket["key"],
        kind="ticket",
        title=ticket["summary"],
        text=text[:TEXT_LIMIT],
        url=ticket.get("url", ""),
    )


def doc_sources(doc: dict[str, Any]) -> list[Source]:
    """A document as sources: one per PDF page (cited with its page), else the whole text."""
    pages = doc.get("pages") or []
    if doc["kind"] == "pdf":
        return [
            Source(
                id=f"{doc['doc_id']} p.{page['page_number']}",
                kind="pdf",
                title=f"{doc['title']}, page {page['page_number']}",
                text=page["text"][:TEXT_LIMIT],
                url=f"{doc['url']}#page={page['page_number']}",
            )
            for page in pages
        ]
    text = pages[0]["text"] if pages else doc.get("markdown") or ""
    return [
        Source(
            id=doc["doc_id"], kind="doc", title=doc["title"], text=text[:TEXT_LIMIT], url=doc["url"]
        )
    ]


def web_sources(results: dict[str, Any]) -> list[Source]:
    """Search results as sources, cited by URL."""
    return [
        Source(id=r["url"], kind="web", title=r["title"], text=r["snippet"], url=r["url"])
        for r in results.get("results", [])
    ]


def compact(answer: Any, limit: int = TEXT_LIMIT) -> Any:
    """A tool answer with every text cut where sources cut it: the same sources, from less."""
    if isinstance(answer, str):
        return answer[:limit]
    if isinstance(answer, dict):
        return {k: compact(v, limit) for k, v in answer.items()}
    if isinstance(answer, list):
        return [compact(v, limit) for v in answer]
    return answer


def cite(source_id: str) -> str:
    """A citation as it appears in the report: [PAY-2], [contract.pdf p.3], [https://...]."""
    return f"[{source_id}]"


def brief(sources: list[Source]) -> list[dict[str, str]]:
    """Sources as a model reads them."""
    return [{"id": s.id, "title": s.title, "text": s.text} for s in sources]
