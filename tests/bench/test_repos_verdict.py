"""A real project matches its reference run only where the reference passes tests."""

from bench.repos import Outcome, verdict


def test_ours_matches_with_the_references_passes_and_no_more_failures() -> None:
    reference = Outcome(setup_s=1.0, passed=10, failed=2)
    assert verdict(Outcome(setup_s=1.0, passed=12, failed=2), reference) == "yes"
    assert verdict(Outcome(setup_s=1.0, passed=9, failed=0), reference) == "no"
    assert verdict(Outcome(setup_s=1.0, passed=10, failed=3), reference) == "no"


def test_a_reference_passing_nothing_leaves_nothing_to_compare() -> None:
    nothing = Outcome(setup_s=1.0, passed=0, failed=7)
    assert verdict(Outcome(setup_s=1.0, passed=109, failed=0), nothing) == "n/a"
    assert verdict(Outcome(setup_s=1.0), Outcome(setup_s=1.0)) == "n/a"
