"""A small keyword index over a repository's text files, for ranked context retrieval."""

import math
import re
from collections import Counter
from pathlib import Path

from pydantic import BaseModel

CHUNK_LINES = 40
MAX_FILE_BYTES = 200_000
MAX_CHUNKS = 20_000
STOPWORDS = frozenset(
    "a an and are as at be by for from has have in is it of on or that the this to was were"
    " will with def self return import none true false".split()
)
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]*")
_CAMEL = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")
_DEFINITION = re.compile(r"\b(?:def|class|function|func|fn|interface|struct|type)\s+(\w+)")


class Snippet(BaseModel):
    """A ranked piece of a file: its path, 1-based line span, text and score."""

    path: str
    start_line: int
    end_line: int
    text: str
    score: float


def terms(text: str) -> list[str]:
    """Lower-case search terms: words split on snake_case and camelCase, stopwords dropped."""
    found: list[str] = []
    for word in _WORD.findall(text):
        parts = [word.lower()] + [p.lower() for p in _CAMEL.findall(word)]
        found.extend(p for p in dict.fromkeys(parts) if len(p) > 1 and p not in STOPWORDS)
    return found


class CodeIndex:
    """Chunks of text files with their term counts; ranks chunks by query-term overlap."""

    def __init__(self, chunks: list[tuple[str, int, int, str]]) -> None:
        self.chunks = chunks
        self.counts = [Counter(terms(f"{path} {text}")) for path, _, _, text in chunks]
        self.path_terms = [set(terms(path)) for path, _, _, _ in chunks]
        self.defined = [set(terms(" ".join(_DEFINITION.findall(text)))) for *_, text in chunks]
        frequency: Counter[str] = Counter()
        for count in self.counts:
            frequency.update(count.keys())
        total = max(len(chunks), 1)
        self.idf = {term: math.log(1 + total / df) for term, df in frequency.items()}

    @classmethod
    def build(cls, repo_dir: Path, files: list[str]) -> "CodeIndex":
        """Index the given repository-relative files (binary and very large files skipped)."""
        chunks: list[tuple[str, int, int, str]] = []
        for relative in files:
            path = repo_dir / relative
            try:
                if path.stat().st_size > MAX_FILE_BYTES:
                    continue
                data = path.read_bytes()
            except OSError:
                continue
            if b"\0" in data[:4096]:
                continue
            lines = data.decode("utf-8", errors="replace").splitlines()
            for start in range(0, max(len(lines), 1), CHUNK_LINES):
                text = "\n".join(lines[start : start + CHUNK_LINES])
                end = min(start + CHUNK_LINES, len(lines))
                chunks.append((relative, start + 1, end, text))
            if len(chunks) >= MAX_CHUNKS:
                break
        return cls(chunks)

    def context_query(self, query: str, k: int = 5) -> list[Snippet]:
        """The k chunks sharing the most rare terms with the query, best first.

        A term counts double where the chunk defines it and again where the path holds it.
        """
        wanted = set(terms(query))
        scored: list[tuple[float, int]] = []
        for i, count in enumerate(self.counts):
            shared = wanted.intersection(count)
            if not shared:
                continue
            score = sum(self.idf[t] for t in shared)
            score += sum(self.idf[t] for t in shared & self.defined[i])
            score += sum(self.idf[t] for t in shared & self.path_terms[i])
            scored.append((score, i))
        scored.sort(key=lambda item: (-item[0], item[1]))
        return [
            Snippet(path=p, start_line=s, end_line=e, text=t, score=round(score, 3))
            for score, i in scored[:k]
            for p, s, e, t in [self.chunks[i]]
        ]
