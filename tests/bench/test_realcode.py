"""The real-code generator on a tiny fake sdist: hidden tests computed and split out by the
syntax tree, the ticket written as the bench reads it, and bad input named."""

import shutil
from pathlib import Path

import pytest

from bench.quality.realcode import __main__ as realcode
from bench.quality.realcode.generate import generate_project
from bench.quality.realcode.hidden_tests import FunctionRef, functions_in, split_tests
from bench.quality.realcode.layout import ticket_files
from bench.quality.realcode.sources import SourceError, fetch_sdist, load_project, unpack
from bench.quality.scoring import score_checkout
from bench.quality.tickets import copy_tree, load_ticket
from tests.bench.realcode_fixture import FIND, MODULE, TESTS, build_sdist, project_toml


@pytest.fixture
def fake(tmp_path: Path) -> tuple[Path, Path, Path]:
    """The fake project's sources folder, its sdist cache and an empty tickets folder."""
    cache = tmp_path / "cache"
    _, sha = build_sdist(cache)
    sources = tmp_path / "sources"
    sources.mkdir()
    (sources / "fakecalc.toml").write_text(project_toml(sha))
    tickets = tmp_path / "tickets"
    tickets.mkdir()
    return sources, cache, tickets


def test_a_function_a_method_and_the_fixture_they_need_are_split_out() -> None:
    hidden = {
        FunctionRef(cls=None, name="test_ordinal_cases"),
        FunctionRef(cls="TestOrdinal", name="test_eleventh"),
    }
    visible, kept = split_tests(TESTS, hidden)
    assert [str(t) for t in functions_in(visible)] == [
        "test_add",
        "TestOrdinal::test_first",
        "test_fourth",
    ]
    assert [str(t) for t in functions_in(kept)] == [
        "test_ordinal_cases",
        "TestOrdinal::test_eleventh",
    ]
    for text in (visible, kept):  # imports, fixtures, helpers and constants go with both
        assert "from fakecalc import add, ordinal" in text and "def seven():" in text
        assert "def helper(n):" in text and "TEENS = [11, 12, 13]" in text
    assert '@pytest.mark.parametrize("n", [1, *TEENS])' in kept
    assert "parametrize" not in visible


def test_a_class_whose_every_test_is_hidden_leaves_the_visible_file() -> None:
    hidden = {
        FunctionRef(cls="TestOrdinal", name="test_first"),
        FunctionRef(cls="TestOrdinal", name="test_eleventh"),
    }
    visible, kept = split_tests(TESTS, hidden)
    assert "class TestOrdinal" not in visible and "class TestOrdinal" in kept
    assert [t.name for t in functions_in(kept)] == ["test_first", "test_eleventh"]
    compile(visible, "visible", "exec")


def test_the_generator_writes_a_sound_ticket(fake: tuple[Path, Path, Path], tmp_path: Path) -> None:
    sources, cache, tickets = fake
    (made,) = generate_project(load_project(sources / "fakecalc.toml"), tickets, cache)
    assert made.name == "fakecalc-teens" and len(made.hidden) == 2
    assert (made.lines, made.chars) == (11, len(MODULE) - len(FIND))  # the ticket's code
    assert made.line() == "fakecalc-teens: 11 lines, 196 characters of modules; 2 hidden tests"

    ticket = load_ticket(tickets / "fakecalc-teens")
    assert ticket.source == "fakecalc" and ticket.generated is not None
    assert ticket.reference_paths() == ["fakecalc/__init__.py"]
    assert sorted(p.name for p in ticket.hidden_dir.iterdir()) == [
        "conftest.py",
        "test_calc_hidden.py",
    ]
    visible = (ticket.repo_dir / "tests" / "test_calc.py").read_text()
    assert "test_eleventh" not in visible and "test_first" in visible
    assert FIND not in (ticket.repo_dir / "fakecalc" / "__init__.py").read_text()
    assert ticket.generated.files == ticket_files(ticket.root)

    original, solved = tmp_path / "original", tmp_path / "solved"
    copy_tree(ticket.repo_dir, original)
    copy_tree(ticket.repo_dir, solved)
    copy_tree(ticket.reference_dir, solved)
    before, after = score_checkout(ticket, original), score_checkout(ticket, solved)
    assert before.existing.green and before.hidden.passed < before.hidden.total
    assert after.resolved


def test_check_finds_a_hand_edit(
    fake: tuple[Path, Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    sources, cache, tickets = fake
    assert realcode.generate([], False, tickets, sources, cache) == 0
    assert realcode.generate(["fakecalc"], True, tickets, sources, cache) == 0
    assert "the generated tickets match" in capsys.readouterr().out
    edited = tickets / "fakecalc-teens" / "repo" / "tests" / "test_calc.py"
    edited.write_text(edited.read_text().replace("== 8", "== 8 or True"))
    assert realcode.generate(["fakecalc"], True, tickets, sources, cache) == 1
    assert "fakecalc-teens/repo/tests/test_calc.py: differs" in capsys.readouterr().out


def test_a_changed_sdist_is_refused(fake: tuple[Path, Path, Path]) -> None:
    sources, cache, _ = fake
    build_sdist(cache / "other")
    shutil.copy(cache / "other" / "fakecalc-1.0.tar.gz", cache / "fakecalc-1.0.tar.gz")
    (cache / "fakecalc-1.0.tar.gz").write_bytes((cache / "fakecalc-1.0.tar.gz").read_bytes() + b"x")
    with pytest.raises(SourceError, match="fakecalc.toml: .* has sha256 .*fix `sha256`"):
        fetch_sdist(load_project(sources / "fakecalc.toml"), cache)


def bad(tmp_path: Path, cache: Path, **changes: str) -> SourceError:
    """The error of generating the fake project with the ticket's fields changed."""
    _, sha = build_sdist(cache)
    path = tmp_path / "sources" / "fakecalc.toml"
    path.write_text(project_toml(sha, **changes))
    with pytest.raises(SourceError) as caught:
        generate_project(load_project(path), tmp_path / "tickets", cache)
    return caught.value


def test_a_find_that_is_not_there_once_is_named(
    fake: tuple[Path, Path, Path], tmp_path: Path
) -> None:
    _, cache, _ = fake
    err = bad(tmp_path, cache, find="    return a - b\n")
    assert "fakecalc.toml: ticket fakecalc-teens" in str(err) and "does not occur" in str(err)
    err = bad(tmp_path, cache, find='    """')
    assert "occurs 2 times" in str(err) and "exactly once" in str(err)


def test_an_unknown_path_is_named(fake: tuple[Path, Path, Path], tmp_path: Path) -> None:
    _, cache, _ = fake
    err = bad(tmp_path, cache, module="fakecalc/core.py")
    assert "fakecalc.toml: 'fakecalc/core.py' is not in fakecalc-1.0.tar.gz" in str(err)


def test_a_change_of_a_file_that_is_not_a_module_is_named(
    fake: tuple[Path, Path, Path], tmp_path: Path
) -> None:
    _, cache, _ = fake
    err = bad(tmp_path, cache, change_path="fakecalc/other.py")
    assert (
        "ticket fakecalc-teens: change path 'fakecalc/other.py' is not one of the modules"
        in str(err)
    )


def test_a_change_no_test_sees_is_refused(fake: tuple[Path, Path, Path], tmp_path: Path) -> None:
    _, cache, _ = fake
    err = bad(tmp_path, cache, find='    """The sum."""\n', replace='    """Sum."""\n')
    assert "ticket fakecalc-teens: its changes make 0 tests fail; a ticket needs 1 to 12" in str(
        err
    )


def test_a_taken_name_or_key_project_is_named(
    fake: tuple[Path, Path, Path], tmp_path: Path
) -> None:
    sources, cache, tickets = fake
    _, sha = build_sdist(cache)
    (sources / "other.toml").write_text(
        project_toml(sha, name="other-teens").replace('name = "fakecalc"', 'name = "other"')
    )
    with pytest.raises(
        SourceError,
        match="other.toml: ticket other-teens: key FAKEC-1: the project part FAKEC is taken",
    ):
        realcode.generate([], False, tickets, sources, cache)
    (sources / "other.toml").write_text(project_toml(sha, name="other-teens", key="SLUG-1"))
    shutil.copytree(Path(realcode.TICKETS_DIR) / "slug-separator", tickets / "slug-separator")
    with pytest.raises(
        SourceError, match="key SLUG-1: the project part SLUG is taken by slug-separator"
    ):
        realcode.generate([], False, tickets, sources, cache)
    (sources / "other.toml").unlink()
    (sources / "fakecalc.toml").write_text(project_toml(sha, name="slug-separator"))
    with pytest.raises(SourceError, match="name it <project>-<slug>"):
        realcode.generate([], False, tickets, sources, cache)


def test_unpack_removes_the_top_folder(fake: tuple[Path, Path, Path], tmp_path: Path) -> None:
    _, cache, _ = fake
    top = unpack(cache / "fakecalc-1.0.tar.gz", tmp_path / "unpacked")
    assert (top / "fakecalc" / "__init__.py").is_file()


def test_the_rest_of_the_file_is_kept_as_written() -> None:
    source = (
        'DATA = """\na\n\n\n\nb\n"""\n\n\ndef test_a():\n    pass\n\n\ndef test_b():\n    pass\n'
    )
    visible, kept = split_tests(source, {FunctionRef(cls=None, name="test_a")})
    assert visible == 'DATA = """\na\n\n\n\nb\n"""\n\n\ndef test_b():\n    pass\n'
    assert kept == 'DATA = """\na\n\n\n\nb\n"""\n\n\ndef test_a():\n    pass\n'


def test_a_class_left_without_tests_goes_unless_another_inherits_from_it() -> None:
    source = (
        "import unittest\n\n\nclass Base(unittest.TestCase):\n    def setUp(self):\n"
        "        self.n = 1\n\n    def test_base(self):\n        pass\n\n\n"
        "class Other(Base):\n    def setUp(self):\n        self.n = 2\n\n"
        "    def test_other(self):\n        pass\n\n\nclass Third(Base):\n"
        "    def test_third(self):\n        pass\n"
    )
    visible, kept = split_tests(source, {FunctionRef(cls="Other", name="test_other")})
    assert "class Other" not in visible and "class Base" in visible
    assert [str(t) for t in functions_in(kept)] == ["Other::test_other"]
    assert "class Base(unittest.TestCase):\n    def setUp(self):\n" in kept
    assert "class Third" not in kept and "test_base" not in kept
