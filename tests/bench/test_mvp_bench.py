"""The MVP bench's yardstick checked before any run: a correct project for each prompt scores
working on every check, in the real sandbox; stubs and projects wrong in one way do not.

The reference projects live in tests/data/mvp_references/<prompt>/, each file with a `.txt`
suffix so that neither this suite's pytest, ruff, mypy nor compileall takes them for the
repository's own code; `reference()` maps them back to the project's paths.
"""

from pathlib import Path

import pytest

from bench.mvp.prompts import ACCEPTANCE_DIR, PromptError, load_prompts
from bench.mvp.scoring import CHECKS, MvpScore, score_project
from config import Settings
from graphs.mvp.usage import Usage
from integrations.environments.build import Environments
from integrations.workspace.sandbox import Sandbox, SandboxUnavailable, sandbox_from

REFERENCES = Path(__file__).resolve().parent.parent / "data" / "mvp_references"
SUFFIX = ".txt"
LIBRARY_USE = "from wordstats import word_frequencies; print(word_frequencies('the cat, the hat'))"
# The usage each prompt implies: the command (and URL) it names, as the manager would plan it.
USAGES = {
    "expenses-cli": Usage(interface="command line", command="python -m expenses total"),
    "bookmarks-api": Usage(
        interface="web server", command="python -m bookmarks", url="http://127.0.0.1:8765/"
    ),
    "monthly-temperatures": Usage(interface="command line", command="python report.py temps.csv"),
    "word-frequencies": Usage(interface="library", command=f'python -c "{LIBRARY_USE}"'),
    "temperature-page": Usage(
        interface="web server", command="python -m converter", url="http://127.0.0.1:8766/"
    ),
}
PROMPTS = {prompt.name: prompt for prompt in load_prompts()}


def reference(name: str) -> dict[str, str]:
    """The reference project of a prompt: its files by path, the `.txt` suffix taken off."""
    root = REFERENCES / name
    paths = sorted(path for path in root.rglob("*") if path.is_file())
    assert paths and all(path.name.endswith(SUFFIX) for path in paths), paths
    return {
        path.relative_to(root).as_posix().removesuffix(SUFFIX): path.read_text() for path in paths
    }


def failing(score: MvpScore) -> set[str]:
    """The checks a score failed."""
    return {check for check in CHECKS if not getattr(score, check)}


@pytest.fixture(scope="module")
def environments(tmp_path_factory: pytest.TempPathFactory) -> Environments:
    """Environments in the sandbox the default settings name (bubblewrap), built once for the
    module: the projects have no dependency files, so they share one (pytest only). Where
    bubblewrap cannot run, unsandboxed, as the graph's own tests run."""
    sandbox = sandbox_from(Settings(_env_file=None, temporal_env_config=False))  # type: ignore[call-arg]
    try:
        sandbox.check()
    except SandboxUnavailable:
        sandbox = Sandbox(mode="none")
    return Environments(tmp_path_factory.mktemp("mvp-bench") / "envs", sandbox)


def test_every_prompt_has_an_acceptance_script_a_usage_and_a_reference() -> None:
    assert len(PROMPTS) == 5
    for prompt in PROMPTS.values():
        assert prompt.script.is_file() and prompt.script.parent == ACCEPTANCE_DIR, prompt.script
    assert set(USAGES) == set(PROMPTS)
    assert {path.name for path in REFERENCES.iterdir() if path.is_dir()} == set(PROMPTS)


def test_an_unknown_prompt_name_is_refused() -> None:
    with pytest.raises(PromptError, match="unknown prompts \\['no-such-prompt'\\]"):
        load_prompts(["expenses-cli", "no-such-prompt"])
    assert [p.name for p in load_prompts(["word-frequencies"])] == ["word-frequencies"]


def test_a_prompt_whose_script_is_missing_is_refused(tmp_path: Path) -> None:
    prompts = tmp_path / "prompts.toml"
    prompts.write_text(
        '[[prompts]]\nname = "x"\nkind = "k"\nprompt = "p"\nacceptance = "no_such_script.py"\n'
    )
    with pytest.raises(PromptError, match="no_such_script.py"):
        load_prompts(path=prompts)


@pytest.mark.parametrize("name", list(USAGES))
async def test_the_reference_project_passes_every_check(
    name: str, environments: Environments
) -> None:
    score = await score_project(PROMPTS[name], reference(name), USAGES[name], environments)
    notes = "\n".join(score.notes)
    assert not failing(score), f"{name} failed {sorted(failing(score))}:\n{notes}"
    assert score.working, notes
    assert any(note.startswith("acceptance: ok") for note in score.notes), notes


STUB_CLI = {
    "expenses/__init__.py": '"""An expense tracker."""\n',
    "expenses/__main__.py": "def main():\n    pass\n\n\nif __name__ == '__main__':\n    main()\n",
    "tests/test_expenses.py": "def test_add():\n    pass\n\n\ndef test_total():\n    pass\n",
}
STUB_WEB = {
    "converter/__init__.py": '"""A Celsius to Fahrenheit page."""\n',
    "converter/__main__.py": (
        "def serve(port):\n    ...\n\n\ndef main():\n    pass\n\n\n"
        "if __name__ == '__main__':\n    main()\n"
    ),
    "converter/page.py": 'def render(celsius):\n    """The page."""\n',
    "tests/test_converter.py": "def test_page():\n    pass\n",
}


@pytest.mark.parametrize(
    ("name", "files", "failed"),
    [
        ("expenses-cli", STUB_CLI, {"runs", "tests", "no_stubs", "acceptance"}),
        ("temperature-page", STUB_WEB, set(CHECKS)),
    ],
)
async def test_a_stub_project_is_not_working(
    name: str, files: dict[str, str], failed: set[str], environments: Environments
) -> None:
    score = await score_project(PROMPTS[name], files, USAGES[name], environments)
    notes = "\n".join(score.notes)
    assert not score.working, notes
    assert failing(score) == failed, notes
    assert any("asserts nothing" in note for note in score.notes), notes
    assert any("is a stub (pass)" in note for note in score.notes), notes


# Each reference made wrong in one way the prompt rules out: its acceptance script notices.
MUTANTS = [
    ("expenses-cli", "expenses/__main__.py", ":.2f}", ":.1f}"),  # the total with one decimal
    ("bookmarks-api", "bookmarks/server.py", "HTTPStatus.CREATED", "HTTPStatus.OK"),
    ("monthly-temperatures", "report.py", "sorted(by_month.items())", "by_month.items()"),
    ("word-frequencies", "wordstats/frequencies.py", "(-pair[1], pair[0])", "-pair[1]"),
    ("temperature-page", "converter/page.py", "celsius * 9 / 5 + 32", "celsius * 5 / 9 + 32"),
]


@pytest.mark.parametrize(("name", "path", "old", "new"), MUTANTS)
async def test_a_project_wrong_in_one_way_fails_its_acceptance(
    name: str, path: str, old: str, new: str, environments: Environments
) -> None:
    files = reference(name)
    assert old in files[path]
    files[path] = files[path].replace(old, new)
    score = await score_project(PROMPTS[name], files, USAGES[name], environments)
    notes = "\n".join(score.notes)
    assert not score.acceptance and not score.working, notes
    assert any(note.startswith("acceptance: FAIL") for note in score.notes), notes
