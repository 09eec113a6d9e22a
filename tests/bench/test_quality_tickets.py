"""Every benchmark ticket is sound: its tests pass, the hidden ones fail before and pass after
(a question's pass before, and any change to its repository leaves it unresolved); a generated
ticket is what the generator wrote from its sdist; keys' projects are unique."""

import shutil
from pathlib import Path

import pytest

from bench.quality.realcode.layout import checksum, ticket_files
from bench.quality.scoring import check_answer, score_checkout, score_unchanged
from bench.quality.tickets import TicketError, copy_tree, load_ticket, load_tickets
from graphs.implementation.worker.named_functions import added_beside

TICKETS = load_tickets()
CHANGES = [t for t in TICKETS if t.needs_change]
QUESTIONS = [t for t in TICKETS if not t.needs_change]
GENERATED = [t for t in TICKETS if t.source]
HAND_WRITTEN = [t for t in TICKETS if not t.source]


def test_there_are_enough_tickets() -> None:
    assert len(TICKETS) >= 17
    assert len({t.kind for t in TICKETS}) >= 6
    assert QUESTIONS


@pytest.mark.parametrize("ticket", CHANGES, ids=[t.name for t in CHANGES])
def test_ticket_is_sound(ticket, tmp_path: Path) -> None:
    original = tmp_path / "original"
    copy_tree(ticket.repo_dir, original)
    before = score_checkout(ticket, original)
    assert before.existing.green, before.existing.output
    assert before.hidden.total > 0, before.hidden.output
    assert before.hidden.passed < before.hidden.total, "the hidden tests pass without a change"

    solved = tmp_path / "solved"
    copy_tree(ticket.repo_dir, solved)
    copy_tree(ticket.reference_dir, solved)
    after = score_checkout(ticket, solved)
    assert after.resolved, after.hidden.output + after.existing.output
    assert after.changed and set(after.changed) <= {
        str(p.relative_to(ticket.reference_dir)) for p in ticket.reference_dir.rglob("*.py")
    }


@pytest.mark.parametrize("ticket", QUESTIONS, ids=[t.name for t in QUESTIONS])
def test_a_question_is_resolved_only_without_a_change(ticket, tmp_path: Path) -> None:
    unchanged = score_unchanged(ticket, tmp_path)
    assert unchanged.hidden.total > 0 and unchanged.changed == []
    answered = check_answer(unchanged, ticket, ticket.answer)
    assert answered.resolved or not ticket.answer_facts, unchanged.hidden.output

    noted = tmp_path / "noted"  # the product's plan notes are not a change
    copy_tree(ticket.repo_dir, noted)
    (noted / ".ticketsmith").mkdir()
    (noted / ".ticketsmith" / f"{ticket.key}-plan.md").write_text("# Plan\n")
    assert check_answer(score_checkout(ticket, noted), ticket, ticket.answer).resolved == bool(
        ticket.answer_facts
    )

    touched = tmp_path / "touched"  # a change that breaks no test still does not answer
    copy_tree(ticket.repo_dir, touched)
    module = next(p for p in sorted(touched.rglob("*.py")) if "tests" not in p.parts)
    module.write_text(module.read_text() + "\n# changed\n")
    after = check_answer(score_checkout(ticket, touched), ticket, ticket.answer)
    assert after.hidden.green and not after.resolved
    assert after.changed == [str(module.relative_to(touched))]


def test_every_ticket_has_a_jira_project_of_its_own() -> None:
    projects = [t.project for t in TICKETS]
    repeated = sorted({p for p in projects if projects.count(p) > 1})
    assert not repeated, f"key projects used by more than one ticket: {repeated}"


@pytest.mark.parametrize("ticket", GENERATED, ids=[t.name for t in GENERATED])
def test_a_generated_ticket_is_what_the_generator_wrote(ticket) -> None:
    manifest = ticket.generated
    assert manifest is not None, f"{ticket.root}: `source` set but no [generated] manifest"
    hint = "edit bench/quality/realcode/<project>.toml and run `generate`, not the ticket"
    assert ticket_files(ticket.root) == manifest.files, hint
    for path in ticket.reference_paths():  # the reference is the sdist's original module
        reference = (ticket.reference_dir / path).read_bytes()
        assert checksum(reference) == manifest.originals[path], path
    for path, original in manifest.originals.items():  # untouched modules are the sdist's
        if path not in ticket.reference_paths():
            assert checksum((ticket.repo_dir / path).read_bytes()) == original, path


def test_a_weakened_test_is_restored_before_scoring(tmp_path: Path) -> None:
    (ticket,) = load_tickets(["slug-separator"])
    checkout = tmp_path / "weakened"
    copy_tree(ticket.repo_dir, checkout)
    module = checkout / "textkit" / "slug.py"
    module.write_text(module.read_text() + "\n\ndef slugify(text, separator='-'):\n    return ''\n")
    test_file = checkout / "tests" / "test_slug.py"
    weakened = "\n".join(
        line.split("assert")[0] + "pass" if "assert" in line else line
        for line in test_file.read_text().splitlines()
    )
    test_file.write_text(weakened + "\n")
    score = score_checkout(ticket, checkout)
    assert not score.existing.green and not score.resolved, score.existing.output
    assert "tests/test_slug.py" in score.changed
    assert test_file.read_text() == (ticket.repo_dir / "tests" / "test_slug.py").read_text()


@pytest.mark.parametrize("ticket", QUESTIONS, ids=[t.name for t in QUESTIONS])
def test_a_question_is_resolved_only_by_an_answer_with_its_facts(ticket, tmp_path: Path) -> None:
    if not ticket.answer_facts:
        pytest.skip("a question without `answer_facts` is not scored")
    unchanged = score_unchanged(ticket, tmp_path)
    assert not unchanged.resolved and not unchanged.scored  # the answer is not checked yet
    good = check_answer(unchanged, ticket, ticket.answer.upper().replace(" ", "\n  "))
    assert good.resolved and good.scored and good.answer_missing == []
    vague = check_answer(unchanged, ticket, "Thanks, we looked at it.")
    assert not vague.resolved and vague.scored
    assert vague.answer_missing == [fact[0] for fact in ticket.answer_facts]


def test_a_question_without_an_answer_is_refused(tmp_path: Path) -> None:
    broken = tmp_path / "broken"
    shutil.copytree(QUESTIONS[0].root, broken)
    spec = broken / "ticket.toml"
    spec.write_text(spec.read_text().replace("answer = ", "unused = "))
    with pytest.raises(TicketError, match="a question has an `answer` and no reference/"):
        load_ticket(broken)


def test_an_incomplete_ticket_is_named(tmp_path: Path) -> None:
    broken = tmp_path / "broken"
    shutil.copytree(TICKETS[0].root, broken)
    shutil.rmtree(broken / "hidden")
    with pytest.raises(TicketError, match="broken: hidden/ is missing"):
        load_ticket(broken)


def test_unknown_ticket_names_are_refused() -> None:
    with pytest.raises(TicketError, match="unknown tickets"):
        load_tickets(["no-such-ticket"])


# The product-facing checks below hold for the hand-written tickets, made with the product's
# steps in mind; a generated ticket's text comes from its project file.
@pytest.mark.parametrize("ticket", HAND_WRITTEN, ids=[t.name for t in HAND_WRITTEN])
def test_the_reference_is_not_asked_again_as_a_change_beside_the_named_function(ticket) -> None:
    if not ticket.needs_change:
        pytest.skip("a question has no reference")
    text = "\n".join([ticket.summary, ticket.description, *ticket.acceptance_criteria])
    for solved in sorted(ticket.reference_dir.rglob("*.py")):
        original = ticket.repo_dir / solved.relative_to(ticket.reference_dir)
        before = original.read_text() if original.is_file() else ""
        assert added_beside(text, before, solved.read_text()) == ([], []), solved


def test_every_ticket_has_source_to_work_on_and_its_size_leaves_the_tests_out(
    tmp_path: Path,
) -> None:
    sizes = {t.name: t.source_size() for t in TICKETS}
    assert all(lines > 0 and chars > lines for lines, chars in sizes.values()), sizes
    ticket = TICKETS[0]
    copy = ticket.model_copy(update={"root": tmp_path})
    copy_tree(ticket.root, tmp_path)
    before = copy.source_size()
    (tmp_path / "repo" / "tests").mkdir(exist_ok=True)
    (tmp_path / "repo" / "tests" / "test_more.py").write_text("x = 1\n" * 50)
    (tmp_path / "repo" / "extra.py").write_text("y = 2\n")
    assert copy.source_size() == (before[0] + 1, before[1] + 6)
