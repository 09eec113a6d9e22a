"""`python -m bench.quality.realcode generate [PROJECT ...] [--check]`: real-code tickets.

Downloads each project's pinned sdist once (pip, into the cache: .data/bench-sources/ or
$TICKETSMITH_BENCH_SOURCES), checks its sha256, runs the project's tests on the original and
on each ticket's code, and writes the tickets into bench/quality/tickets/ (committed, so the
bench needs no network). `--check` rebuilds them in a temporary folder and reports every
difference from what is committed.
"""

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

from bench.quality.realcode.generate import generate_project
from bench.quality.realcode.sources import SOURCES_DIR, Project, SourceError, load_projects
from bench.quality.tickets import TICKETS_DIR, Ticket, TicketError, load_tickets


def check_names(projects: list[Project], tickets: list[Ticket]) -> None:
    """Ticket names and key projects unique over the project files and hand-written tickets."""
    names = {t.name: f"the hand-written ticket in {t.root}" for t in tickets if not t.source}
    keys = {t.project: f"{t.name} ({t.root})" for t in tickets if not t.source}
    for project in projects:
        for ticket in project.tickets:
            where = f"{project.path}: ticket {ticket.name}"
            if ticket.name in names:
                raise SourceError(f"{where}: the name is taken by {names[ticket.name]}; rename it")
            key_project = ticket.key.split("-", 1)[0]
            if key_project in keys:
                raise SourceError(
                    f"{where}: key {ticket.key}: the project part {key_project} is taken by "
                    f"{keys[key_project]}; each ticket needs a Jira project of its own"
                )
            names[ticket.name] = f"a ticket of {project.path}"
            keys[key_project] = f"{ticket.name} ({project.path})"


def committed_of(project: str, tickets_dir: Path) -> list[str]:
    """The committed tickets generated from a project."""
    return sorted(t.name for t in load_tickets(tickets_dir=tickets_dir) if t.source == project)


def differences(built: Path, committed: Path) -> list[str]:
    """The files that differ between a rebuilt ticket and the committed one."""

    def files(root: Path) -> dict[str, bytes]:
        return {
            str(p.relative_to(root)): p.read_bytes()
            for p in sorted(root.rglob("*"))
            if p.is_file() and "__pycache__" not in p.parts
        }

    new, old = files(built), files(committed)
    return [
        f"{committed.name}/{path}: "
        + ("missing" if path not in old else "not generated" if path not in new else "differs")
        for path in sorted(new.keys() | old.keys())
        if new.get(path) != old.get(path)
    ]


def generate(names: list[str], check: bool, tickets_dir: Path = TICKETS_DIR,
             sources_dir: Path = SOURCES_DIR, cache: Path | None = None) -> int:  # fmt: skip
    """Write (or with `check`, compare) the tickets of the named projects (default: all)."""
    everything = load_projects(None, sources_dir)
    check_names(everything, load_tickets(tickets_dir=tickets_dir))
    chosen = [p for p in everything if not names or p.project in names]
    load_projects(names or None, sources_dir)  # unknown names are an error
    if not chosen:
        print(f"no project files in {sources_dir}: nothing to generate")
    found: list[str] = []
    for project in chosen:
        with tempfile.TemporaryDirectory(prefix="realcode-out-") as scratch:
            out = Path(scratch) if check else tickets_dir
            for made in generate_project(project, out, cache):
                print(made.line(), flush=True)
            wanted = {t.name for t in project.tickets}
            for stale in committed_of(project.project, tickets_dir):
                if stale not in wanted:
                    found.append(f"{stale}: committed, but {project.path.name} no longer has it")
            if check:
                for name in sorted(wanted):
                    found += differences(out / name, tickets_dir / name)
    if check:
        for line in found:
            print(line)
        print("the generated tickets match" if not found else f"{len(found)} differences")
        return 1 if found else 0
    for line in found:
        shutil.rmtree(tickets_dir / line.split(":", 1)[0])
        print(f"{line}: deleted")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Entry point of `python -m bench.quality.realcode`."""
    parser = argparse.ArgumentParser(prog="python -m bench.quality.realcode", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    make = commands.add_parser("generate", help="write the real-code tickets")
    make.add_argument("projects", nargs="*", help="project names (default: every project file)")
    make.add_argument("--check", action="store_true", help="rebuild and compare, write nothing")
    args = parser.parse_args(argv)
    try:
        return generate(args.projects, args.check)
    except (SourceError, TicketError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
