"""A small keyword index over a repository's text files, for ranked context retrieval."""

import hashlib
import math
import re
import threading
from collections import Counter, OrderedDict
from collections.abc import Callable
from pathlib import Path

from pydantic import BaseModel

from graphs.analysis.files import priority, readable

CHUNK_LINES = 40
MAX_FILE_BYTES = 200_000
MAX_CHUNKS = 20_000
# text that is not worth searching: assembly, tabular data, translations
UNINDEXED_SUFFIXES = frozenset(".s .asm .ll .csv .tsv .dat .po .pot .xlf .xliff".split())
MAX_GARBLED = 0.01
MINIFIED_LINE_CHARS = 300
STOPWORDS = frozenset(
    "a an and are as at be by for from has have in is it of on or that the this to was were"
    " will with def self return import none true false".split()
)
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]*")
_CAMEL = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")
_DEFINITION = re.compile(r"\b(?:def|class|function|func|fn|interface|struct|type)\s+(\w+)")
_GARBLED = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f\ufffd]")


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


def indexable(path: str) -> bool:
    """Whether a path's name says it is source, tests, docs or config worth indexing."""
    return readable(path) and Path(path).suffix.lower() not in UNINDEXED_SUFFIXES


def text_of(data: bytes) -> str | None:
    """The text of a file's bytes, or None when they look binary, garbled or minified."""
    if b"\0" in data:
        return None
    text = data.decode("utf-8", errors="replace")
    if len(_GARBLED.findall(text)) > MAX_GARBLED * len(text):
        return None
    line_count = text.count("\n") + 1
    if len(text) > 10 * MINIFIED_LINE_CHARS and len(text) > MINIFIED_LINE_CHARS * line_count:
        return None
    return text


Chunks = list[tuple[str, int, int, str]]


class _Built:
    """The last few indexes built, by content: a ticket's steps and tickets on the same
    branch state study the same files, and counting their terms is most of the cost."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._indexes: OrderedDict[str, CodeIndex] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, chunks: Chunks, build: Callable[[Chunks], "CodeIndex"]) -> "CodeIndex":
        """The index of these chunks, built only when not among the last few."""
        digest = hashlib.sha256()
        for path, start, end, text in chunks:
            digest.update(f"{path}\0{start}\0{end}\0{len(text)}\0".encode())
            digest.update(text.encode("utf-8", errors="surrogatepass"))
        key = digest.hexdigest()
        with self._lock:
            if key in self._indexes:
                self._indexes.move_to_end(key)
                return self._indexes[key]
        index = build(chunks)
        with self._lock:
            self._indexes[key] = index
            while len(self._indexes) > self._size:
                self._indexes.popitem(last=False)
        return index


_BUILT = _Built(size=8)


class CodeIndex:
    """Chunks of text files with their term counts; ranks chunks by query-term overlap."""

    def __init__(self, chunks: list[tuple[str, int, int, str]]) -> None:
        self.chunks = chunks
        self.counts = [Counter(terms(f"{path} {text}")) for path, _, _, text in chunks]
        self.path_terms = [set(terms(path)) for path, _, _, _ in chunks]
        self.defined = [set(terms(" ".join(_DEFINITION.findall(text)))) for *_, text in chunks]
        self.definers: dict[str, list[str]] = {}
        for path, _, _, text in chunks:
            for name in _DEFINITION.findall(text):
                where = self.definers.setdefault(name, [])
                if path not in where:
                    where.append(path)
        frequency: Counter[str] = Counter()
        for count in self.counts:
            frequency.update(count.keys())
        total = max(len(chunks), 1)
        self.idf = {term: math.log(1 + total / df) for term, df in frequency.items()}

    @classmethod
    def build(cls, repo_dir: Path, files: list[str]) -> "CodeIndex":
        """Index the given repository-relative files, source first; binary or huge ones skipped."""
        chunks: list[tuple[str, int, int, str]] = []
        # the cap must be spent on source first, then tests, docs and the rest
        for relative in sorted(filter(indexable, files), key=priority):
            path = repo_dir / relative
            try:
                if path.stat().st_size > MAX_FILE_BYTES:
                    continue
                text = text_of(path.read_bytes())
            except OSError:
                continue
            if text is None:
                continue
            lines = text.splitlines()
            for start in range(0, max(len(lines), 1), CHUNK_LINES):
                chunk = "\n".join(lines[start : start + CHUNK_LINES])
                end = min(start + CHUNK_LINES, len(lines))
                chunks.append((relative, start + 1, end, chunk))
            if len(chunks) >= MAX_CHUNKS:
                break
        return _BUILT.get(chunks, cls)

    def defining(self, name: str) -> list[str]:
        """The files that define a function, class or type of exactly this name."""
        return list(self.definers.get(name, []))

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
