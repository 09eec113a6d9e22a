"""The analysis graph: scanning, stack detection, the code index and the summary."""

from pathlib import Path

from graphs.analysis import (
    CodeIndex,
    analyse_repository,
    index_repository,
    make_context_query_tool,
)
from graphs.analysis.scan import (
    detect_frameworks,
    detect_test_command,
    ignored,
    mentioned_files,
    scan_files,
)
from graphs.models import ScriptedChatModel
from graphs.schemas import TicketContext
from llm.prompting import read_task
from tests.graphs.conftest import write_tree


def test_scan_skips_tooling_dirs_and_gitignored_entries(tiny_repo: Path) -> None:
    files = scan_files(tiny_repo)
    assert "calc/ops.py" in files and "tests/test_ops.py" in files and ".gitignore" in files
    for skipped in ("build/", "debug.log", "private/", ".venv/", "node_modules/", "__pycache__"):
        assert not any(skipped in f for f in files), skipped


def test_scan_skips_the_plan_records_ticketsmith_commits(tiny_repo: Path) -> None:
    # The plan is committed to the ticket's branch; the workers are given it, not as code.
    write_tree(tiny_repo, {".ticketsmith/CALC-7-plan.md": "# Plan v1\n\nAdd subtract.\n"})
    files = scan_files(tiny_repo)
    assert "calc/ops.py" in files and not any(f.startswith(".ticketsmith/") for f in files)


def test_gitignore_patterns() -> None:
    patterns = ["build/", "*.log", "/private", "**/cache", "docs/*.md"]
    assert ignored("build", True, patterns)
    assert not ignored("build", False, patterns)  # "build/" only matches directories
    assert ignored("a/b/debug.log", False, patterns)
    assert ignored("private", True, patterns)
    assert not ignored("src/private", True, patterns)  # anchored to the root
    assert ignored("x/y/cache", True, patterns)
    assert ignored("docs/index.md", False, patterns)
    assert not ignored("src/docs.py", False, patterns)


async def test_analysis_detects_python_pytest_and_the_test_command(
    tiny_repo: Path, ticket: TicketContext
) -> None:
    model = ScriptedChatModel(['{"summary": "A calculator package."}'])
    analysis = await analyse_repository(model, tiny_repo, ticket)
    assert analysis.languages == ["Python"]
    assert "pytest" in analysis.frameworks
    assert analysis.test_command == "python -m pytest -q"
    assert analysis.summary == "A calculator package."
    assert "calc/ops.py" in analysis.files and "build/generated.py" not in analysis.files
    assert analysis.tokens > 0 and not analysis.produced_offline
    task, inputs = read_task(model.received[0])
    assert task == "analysis"
    assert inputs["test_command"] == "python -m pytest -q"
    assert inputs["snippets"][0]["path"] == "calc/ops.py"


async def test_a_summary_that_never_parses_gives_way_to_the_scanned_facts(
    tiny_repo: Path, ticket: TicketContext
) -> None:
    model = ScriptedChatModel(["not json"] * 3)
    analysis = await analyse_repository(model, tiny_repo, ticket)
    assert analysis.summary.startswith("A repository of ")
    assert "in Python" in analysis.summary and "`python -m pytest -q`" in analysis.summary
    assert analysis.tokens > 0, "the three failed attempts cost tokens and are counted"


async def test_analysis_of_a_repository_without_tests(tmp_path: Path) -> None:
    repo = write_tree(tmp_path, {"main.go": "package main\n", "go.mod": "module x\n"})
    model = ScriptedChatModel(['{"summary": "A Go program."}'])
    ticket = TicketContext(key="GO-1", summary="Print hello", description="Print hello.")
    analysis = await analyse_repository(model, repo, ticket)
    assert analysis.languages == ["Go"]
    assert analysis.frameworks == []
    assert analysis.test_command == "go test ./..."


def test_no_test_command_for_a_tree_without_tests(tmp_path: Path) -> None:
    repo = write_tree(tmp_path, {"README.md": "hi\n", "app.py": "print(1)\n"})
    assert detect_test_command(repo, scan_files(repo), []) is None


def test_frameworks_from_requirements(tmp_path: Path) -> None:
    repo = write_tree(tmp_path, {"requirements.txt": "fastapi>=0.100\nuvicorn\n", "app.py": ""})
    assert detect_frameworks(repo, scan_files(repo)) == ["FastAPI"]


def test_context_query_ranks_the_relevant_file_first(tiny_repo: Path) -> None:
    index = index_repository(tiny_repo)
    hits = index.context_query("make shout upper case text louder", k=3)
    assert hits[0].path == "calc/strings.py"
    assert hits[0].start_line == 1 and "def shout" in hits[0].text
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    assert index.context_query("add numbers", k=1)[0].path == "calc/ops.py"
    assert index.context_query("zebra quantum", k=5) == []


def test_context_query_splits_long_files_into_chunks(tmp_path: Path) -> None:
    lines = [f"def filler_{i}() -> None:\n    pass\n" for i in range(60)]
    lines.insert(45, "def parse_tide_table() -> int:\n    return 0\n")
    repo = write_tree(tmp_path, {"big.py": "".join(lines)})
    hits = CodeIndex.build(repo, ["big.py"]).context_query("tide table", k=1)
    assert hits and hits[0].start_line > 1 and "parse_tide_table" in hits[0].text


def test_mentioned_files_by_path_and_unique_name() -> None:
    files = ["calc/ops.py", "calc/strings.py", "a/util.py", "b/util.py"]
    text = "Change ops.py and calc/strings.py; util.py too; not calc/ops.pyc."
    assert mentioned_files(text, files) == ["calc/ops.py", "calc/strings.py"]


def test_nested_gitignores_negation_and_info_exclude(tmp_path: Path) -> None:
    repo = write_tree(
        tmp_path,
        {
            ".gitignore": "*.log\n!keep.log\nout/\n\\#literal\n",
            ".git/info/exclude": "scratch.py\n",
            "keep.log": "kept\n",
            "noise.log": "x\n",
            "#literal": "x\n",
            "scratch.py": "x\n",
            "out/a.py": "x\n",
            "pkg/.gitignore": "generated_*.py\n/local.py\ndata/**/raw\n",
            "pkg/generated_api.py": "x\n",
            "pkg/local.py": "x\n",
            "pkg/sub/local.py": "kept\n",
            "pkg/data/2024/q1/raw/file.txt": "x\n",
            "pkg/data/2024/clean.txt": "kept\n",
            "pkg/app.py": "kept\n",
            "other/generated_x.py": "kept: the pattern lives in pkg/\n",
        },
    )
    assert scan_files(repo) == [
        ".gitignore",
        "keep.log",
        "other/generated_x.py",
        "pkg/.gitignore",
        "pkg/app.py",
        "pkg/data/2024/clean.txt",
        "pkg/sub/local.py",
    ]


def test_context_query_is_a_langchain_tool(tiny_repo: Path) -> None:
    tool = make_context_query_tool(index_repository(tiny_repo))
    assert tool.name == "context_query"
    assert set(tool.args) == {"query", "limit"}
    text = tool.invoke({"query": "shout upper", "limit": 1})
    assert text.startswith("calc/strings.py (lines 1-2)\n```") and "def shout" in text
    assert tool.invoke({"query": "zebra"}) == "No code in the repository matches the query."
