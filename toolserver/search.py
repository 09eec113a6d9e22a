"""Web search behind one interface; the default provider is a local full-text index (BM25)."""

import json
import math
import re
from collections import Counter
from pathlib import Path
from typing import Protocol

from pydantic import BaseModel

from toolserver.models import SearchResult, SearchResults

DEFAULT_CORPUS = Path(__file__).resolve().parent / "corpus" / "web.json"
_WORD = re.compile(r"[a-z0-9][a-z0-9.-]*[a-z0-9]|[a-z0-9]")
_SENTENCE = re.compile(r"(?<=[.!?])\s+")
STOP_WORDS = frozenset(
    "a an and are as at be by for from how in is it of on or the to what which who why with".split()
)


class WebPage(BaseModel):
    """One page of the seeded corpus."""

    url: str
    title: str
    text: str


class SearchProvider(Protocol):
    """Anything that answers a query with ranked results."""

    async def search(self, query: str, limit: int) -> SearchResults:
        """The best `limit` results for the query."""
        ...


def words(text: str) -> list[str]:
    """The lower-cased words of a text without stop words."""
    return [w for w in _WORD.findall(text.lower()) if w not in STOP_WORDS]


class LocalIndex:
    """BM25 over a JSON list of pages ({url, title, text}); works offline."""

    k1, b = 1.5, 0.75

    def __init__(self, pages: list[WebPage]) -> None:
        self.pages = pages
        self._terms = [Counter(words(f"{p.title} {p.title} {p.text}")) for p in pages]
        self._avg = sum(sum(t.values()) for t in self._terms) / max(len(pages), 1)
        df: Counter[str] = Counter()
        for terms in self._terms:
            df.update(terms.keys())
        n = len(pages)
        self._idf = {w: math.log(1 + (n - c + 0.5) / (c + 0.5)) for w, c in df.items()}

    @classmethod
    def from_file(cls, path: Path = DEFAULT_CORPUS) -> "LocalIndex":
        """The index of a corpus file."""
        raw = json.loads(path.read_text(encoding="utf-8"))
        return cls([WebPage.model_validate(page) for page in raw])

    def _score(self, index: int, query: list[str]) -> float:
        terms = self._terms[index]
        length = sum(terms.values())
        score = 0.0
        for word in query:
            tf = terms.get(word, 0)
            if tf:
                norm = tf + self.k1 * (1 - self.b + self.b * length / self._avg)
                score += self._idf[word] * tf * (self.k1 + 1) / norm
        return score

    async def search(self, query: str, limit: int) -> SearchResults:
        """Pages sharing words with the query, best first, each with its best sentence."""
        wanted = words(query)
        scored = [(self._score(i, wanted), i) for i in range(len(self.pages))]
        ranked = sorted((s for s in scored if s[0] > 0), key=lambda s: (-s[0], s[1]))[:limit]
        results = [
            SearchResult(
                title=self.pages[i].title,
                snippet=snippet(self.pages[i].text, wanted),
                url=self.pages[i].url,
                score=round(score, 4),
            )
            for score, i in ranked
        ]
        return SearchResults(query=query, results=results)


def snippet(text: str, wanted: list[str], limit: int = 300) -> str:
    """The sentences of the text sharing most words with the query, in their order."""
    sentences = [s.strip() for s in _SENTENCE.split(text) if s.strip()]
    hits = [(len(set(words(s)) & set(wanted)), i) for i, s in enumerate(sentences)]
    best = sorted(i for _, i in sorted(hits, key=lambda h: (-h[0], h[1]))[:2])
    out = " ".join(sentences[i] for i in best)
    return out if len(out) <= limit else out[: limit - 3] + "..."


PROVIDERS = ("local",)


def make_search_provider(name: str, corpus: Path | None = None) -> SearchProvider:
    """The search provider by name; only `local` ships (others plug in here)."""
    if name == "local":
        return LocalIndex.from_file(corpus or DEFAULT_CORPUS)
    raise ValueError(f"unknown search provider {name!r}; available: {', '.join(PROVIDERS)}")
