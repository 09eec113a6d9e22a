"""The document store: markdown, HTML and PDF files in a folder; PDFs are read as pages of text."""

import json
import re
import shutil
from datetime import UTC, datetime
from pathlib import Path

from pypdf import PdfReader

from toolserver.models import Doc, DocCatalogue, DocInfo, DocKind, DocPage

CORPUS_DATE = datetime(2026, 1, 30, tzinfo=UTC)
CORPUS = Path(__file__).resolve().parent / "corpus"
KINDS: dict[str, DocKind] = {".md": "markdown", ".html": "html", ".htm": "html", ".pdf": "pdf"}
_TITLE_HTML = re.compile(r"<title>(.*?)</title>", re.IGNORECASE | re.DOTALL)


class DocumentNotFoundError(LookupError):
    """No document has the id asked for."""


class DocumentStore:
    """Documents by id (their file name) in `folder`; `base_url` is where they are served."""

    def __init__(self, folder: Path, base_url: str = "") -> None:
        self.folder = folder
        self.base_url = base_url.rstrip("/")
        self._pdfs: dict[str, tuple[float, str | None, list[DocPage]]] = {}

    def _files(self) -> dict[str, Path]:
        if not self.folder.is_dir():
            return {}
        return {p.name: p for p in sorted(self.folder.iterdir()) if p.suffix.lower() in KINDS}

    def path(self, doc_id: str) -> Path:
        """The file of a document, or DocumentNotFoundError naming the ids there are."""
        files = self._files()
        if doc_id not in files:
            known = ", ".join(files) or "none"
            raise DocumentNotFoundError(f"no document {doc_id!r}; documents: {known}")
        return files[doc_id]

    def catalogue(self) -> DocCatalogue:
        """Every document with its title, kind and page count."""
        docs = []
        for doc_id in self._files():
            doc = self.get(doc_id)
            docs.append(
                DocInfo(doc_id=doc_id, title=doc.title, kind=doc.kind, page_count=len(doc.pages))
            )
        return DocCatalogue(docs=docs)

    def get(self, doc_id: str) -> Doc:
        """A document: markdown or HTML as written (and as one page of text), PDFs as pages."""
        path = self.path(doc_id)
        kind = KINDS[path.suffix.lower()]
        url = f"{self.base_url}/docs/{doc_id}"
        if kind == "pdf":
            title, pages = self._pdf(path)
            return Doc(doc_id=doc_id, title=title or path.stem, kind=kind, url=url, pages=pages)
        text = path.read_text(encoding="utf-8")
        if kind == "markdown":
            title = next(
                (line[2:].strip() for line in text.splitlines() if line.startswith("# ")), ""
            )
            page = DocPage(page_number=1, text=text)
            return Doc(
                doc_id=doc_id,
                title=title or path.stem,
                kind=kind,
                url=url,
                markdown=text,
                pages=[page],
            )
        match = _TITLE_HTML.search(text)
        page = DocPage(page_number=1, text=html_text(text))
        title = match.group(1).strip() if match else path.stem
        return Doc(doc_id=doc_id, title=title, kind=kind, url=url, html=text, pages=[page])

    def _pdf(self, path: Path) -> tuple[str | None, list[DocPage]]:
        """A PDF's title and pages of text, parsed once per version of the file."""
        mtime = path.stat().st_mtime
        cached = self._pdfs.get(path.name)
        if cached and cached[0] == mtime:
            return cached[1], cached[2]
        reader = PdfReader(path)
        pages = [
            DocPage(page_number=number, text=" ".join((page.extract_text() or "").split()))
            for number, page in enumerate(reader.pages, start=1)
        ]
        title = reader.metadata.title if reader.metadata else None
        self._pdfs[path.name] = (mtime, title, pages)
        return title, pages


def html_text(html: str) -> str:
    """The text of an HTML page: tags dropped, one line per block."""
    text = re.sub(r"<(script|style|head)\b.*?</\1>", "", html, flags=re.IGNORECASE | re.DOTALL)
    text = re.sub(r"</?(p|h\d|li|div|br|tr)\b[^>]*>", "\n", text, flags=re.IGNORECASE)
    text = re.sub(r"<[^>]+>", "", text)
    lines = (" ".join(line.split()) for line in text.splitlines())
    return "\n".join(line for line in lines if line)


def seed_documents(folder: Path) -> list[Path]:
    """Fill an empty folder with the demo corpus: markdown and HTML copied, PDFs generated."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for source in sorted((CORPUS / "docs").iterdir()):
        target = folder / source.name
        if not target.exists():
            shutil.copyfile(source, target)
            written.append(target)
    for source in sorted((CORPUS / "pdf").glob("*.json")):
        target = folder / f"{source.stem}.pdf"
        if not target.exists():
            spec = json.loads(source.read_text(encoding="utf-8"))
            write_pdf(target, spec["title"], spec["pages"])
            written.append(target)
    return written


def write_pdf(path: Path, title: str, pages: list[str]) -> None:
    """A real PDF with one page per text (fpdf2, core fonts: Latin-1 text)."""
    from fpdf import FPDF

    pdf = FPDF(format="A4")
    pdf.set_title(title)
    pdf.set_creation_date(CORPUS_DATE)  # the same bytes on every seeding
    for text in pages:
        pdf.add_page()
        pdf.set_font("Helvetica", size=12)
        pdf.multi_cell(0, 7, text)
    tmp = path.with_suffix(".pdf.tmp")
    pdf.output(str(tmp))
    tmp.replace(path)
