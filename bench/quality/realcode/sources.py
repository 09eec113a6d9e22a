"""A real project's source file (`bench/quality/realcode/<project>.toml`) and its pinned sdist:
downloaded once with pip, checked against its sha256, cached and unpacked."""

import hashlib
import os
import shutil
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path

from pydantic import BaseModel, Field, ValidationError

from config import ROOT

SOURCES_DIR = Path(__file__).resolve().parent
CACHE_ENV = "TICKETSMITH_BENCH_SOURCES"
DEFAULT_CACHE = ROOT / ".data" / "bench-sources"
KINDS = ("bug", "edge case", "new option", "missing feature", "regression")
DOWNLOAD_TIMEOUT_S = 600


class SourceError(ValueError):
    """A project file, an sdist or a ticket the generator cannot use, and what to fix."""


class Place(BaseModel):
    """A path in the unpacked sdist and where it goes in the ticket's repository."""

    path: str
    at: str = ""

    @property
    def target(self) -> str:
        """The path in the ticket's repository."""
        return self.at or self.path


class Source(BaseModel):
    """Where a project's code comes from: a pinned sdist and the files taken from it."""

    name: str
    version: str
    sdist: str
    sha256: str
    license: str
    modules: list[Place] = Field(min_length=1)
    tests: list[Place] = Field(min_length=1)
    pythonpath: str = "."


class Change(BaseModel):
    """One exact replacement in an original module."""

    path: str
    find: str
    replace: str


class RealTicket(BaseModel):
    """One ticket made from the project: what the reporter writes and the alteration."""

    name: str
    key: str
    kind: str
    summary: str
    description: str
    acceptance_criteria: list[str] = Field(min_length=1)
    answers: str
    changes: list[Change] = Field(min_length=1)


class Project(BaseModel):
    """One project file: its source and its tickets."""

    project: str
    path: Path
    source: Source
    tickets: list[RealTicket] = Field(min_length=1)


def project_files(sources_dir: Path = SOURCES_DIR) -> list[Path]:
    """Every project file, sorted by project."""
    return sorted(sources_dir.glob("*.toml"))


def load_project(path: Path) -> Project:
    """The project file at `path`, checked."""
    try:
        data = tomllib.loads(path.read_text())
        project = Project(project=path.stem, path=path, **data)
    except (OSError, tomllib.TOMLDecodeError, ValidationError, TypeError) as err:
        raise SourceError(f"{path}: {err}") from err
    for ticket in project.tickets:
        if ticket.kind not in KINDS:
            raise SourceError(
                f"{path}: ticket {ticket.name}: kind {ticket.kind!r} is not one of {KINDS}"
            )
        if not ticket.name.startswith(f"{project.project}-"):
            raise SourceError(
                f"{path}: ticket {ticket.name}: name it <project>-<slug>, "
                f"starting with {project.project}-"
            )
    return project


def load_projects(names: list[str] | None = None, sources_dir: Path = SOURCES_DIR) -> list[Project]:
    """Every project file (or the named projects); unknown names are an error."""
    files = {p.stem: p for p in project_files(sources_dir)}
    unknown = [n for n in names or [] if n not in files]
    if unknown:
        raise SourceError(f"unknown projects {unknown}; known: {', '.join(sorted(files))}")
    return [load_project(files[n]) for n in (names or sorted(files))]


def cache_dir() -> Path:
    """Where downloaded sdists are kept (the environment variable overrides the default)."""
    return Path(os.environ.get(CACHE_ENV) or DEFAULT_CACHE)


def sha256_of(path: Path) -> str:
    """The hex sha256 of a file."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def download(source: Source, cache: Path) -> None:
    """Download the pinned sdist into the cache with pip (no dependencies, no wheels)."""
    cache.mkdir(parents=True, exist_ok=True)
    argv = [sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:"]
    argv += ["--dest", str(cache), f"{source.name}=={source.version}"]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=DOWNLOAD_TIMEOUT_S)
    if done.returncode != 0:
        raise SourceError(f"pip download {source.name}=={source.version} failed: {done.stderr}")


def fetch_sdist(project: Project, cache: Path | None = None) -> Path:
    """The project's sdist in the cache, downloaded once, its sha256 checked."""
    cache = cache or cache_dir()
    sdist = cache / project.source.sdist
    if not sdist.is_file():
        download(project.source, cache)
    if not sdist.is_file():
        raise SourceError(
            f"{project.path}: pip did not download {project.source.sdist} into {cache}; "
            "check the `sdist` file name"
        )
    actual = sha256_of(sdist)
    if actual != project.source.sha256:
        raise SourceError(
            f"{project.path}: {sdist} has sha256 {actual}, the project file says "
            f"{project.source.sha256}; fix `sha256` (or delete the cached file if it is corrupt)"
        )
    return sdist


def unpack(sdist: Path, target: Path) -> Path:
    """Unpack the sdist into `target`; returns its top folder (the paths' root)."""
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True)
    if sdist.name.endswith(".zip"):
        with zipfile.ZipFile(sdist) as archive:
            archive.extractall(target)
    else:
        with tarfile.open(sdist) as archive:
            archive.extractall(target, filter="data")
    tops = [p for p in target.iterdir() if p.is_dir()]
    return tops[0] if len(tops) == 1 else target
