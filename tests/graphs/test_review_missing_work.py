"""QA never passes a revision that lacks the plan's work, whatever the model says."""

from pathlib import Path
from typing import Any

from graphs.implementation.review import missing_work, settle
from graphs.implementation.state import Fix, Review
from graphs.schemas import Contract, FileChange, Plan, PlannedFile, TestReport, TicketContext

TICKET = TicketContext(
    key="CALC-9", summary="Add power", description="Add power(base, exponent) and a pow command."
)


def state(tmp_path: Path, files: dict[str, str], ticket: TicketContext = TICKET) -> dict[str, Any]:
    (tmp_path / "calc").mkdir(exist_ok=True)
    (tmp_path / "calc" / "ops.py").write_text("def add(a, b):\n    return a + b\n")
    (tmp_path / "calc" / "cli.py").write_text("def main():\n    pass\n")
    plan = Plan(
        version=1,
        summary="power and its command",
        files=[
            PlannedFile(path="calc/ops.py", action="modify", purpose="Add power."),
            PlannedFile(path="calc/cli.py", action="modify", purpose="Add the pow command."),
            PlannedFile(path="tests/test_ops.py", action="create", purpose="Test power."),
        ],
        test_plan=[],
        risks=[],
        contracts=[Contract(path="calc/ops.py", signature="power(base, exponent)", behaviour="")],
        markdown="",
    )
    return {
        "repo_dir": tmp_path,
        "plan": plan,
        "ticket": ticket,
        "requirements": None,
        "files": {p: FileChange(path=p, content=c) for p, c in files.items()},
    }


def test_a_planned_function_absent_and_a_planned_file_untouched_are_missing(
    tmp_path: Path,
) -> None:
    wrote = {"calc/ops.py": "def add(a, b):\n    return a + b\n\n\ndef pow2(a):\n    return a\n"}
    missing = missing_work(state(tmp_path, wrote))  # type: ignore[arg-type]
    assert [(f.path, f.instruction) for f in missing] == [
        ("calc/ops.py", "`power` is not defined; the contract is `power(base, exponent)`."),
        ("calc/cli.py", "not changed; the plan: Add the pow command."),
    ]
    verdict = settle(Review(passed=True, summary="Meets all the requirements."), None, missing)
    assert not verdict.passed
    assert "Work the ticket asks for is missing" in verdict.summary and verdict.fixes == missing


def test_a_revision_with_the_planned_work_passes_as_the_model_said(tmp_path: Path) -> None:
    wrote = {
        "calc/ops.py": "def power(base, exponent):\n    return base**exponent\n",
        "calc/cli.py": "def main():\n    print('pow')\n",
    }
    assert missing_work(state(tmp_path, wrote)) == []  # type: ignore[arg-type]
    review = Review(passed=True, summary="Fine.", fixes=[Fix(path="calc/ops.py", instruction="")])
    assert settle(review, None, []) == review


def test_an_error_the_criteria_state_and_no_planned_file_raises_is_missing(tmp_path: Path) -> None:
    criteria = "- `power(2, 3)` returns 8.\n- A negative exponent raises ValueError."
    ticket = TICKET.model_copy(update={"acceptance_criteria": criteria})
    power = "def power(base, exponent):\n    return base**exponent\n"
    wrote = {"calc/ops.py": power, "calc/cli.py": "def main():\n    print('pow')\n"}
    missing = missing_work(state(tmp_path, wrote, ticket))  # type: ignore[arg-type]
    assert [(f.path, f.instruction) for f in missing] == [
        (
            "calc/ops.py",
            'raises no `ValueError`; the ticket says: "A negative exponent raises ValueError."',
        )
    ]
    checked = power.replace(
        "    return", "    if exponent < 0:\n        raise ValueError(exponent)\n    return"
    )
    wrote["calc/ops.py"] = checked
    assert missing_work(state(tmp_path, wrote, ticket)) == []  # type: ignore[arg-type]


def test_a_stated_error_a_passing_test_of_its_criterion_shows_raised_is_not_missing(
    tmp_path: Path,
) -> None:
    criterion = "A negative exponent raises ValueError."
    ticket = TICKET.model_copy(update={"acceptance_criteria": f"- {criterion}"})
    test_path = "tests/test_calc_9_acceptance.py"
    test = (
        "import pytest\n\nfrom calc.ops import power\n\n\ndef test_criterion_1():\n"
        f'    """{criterion}"""\n    with pytest.raises(ValueError):\n        power(2, -1)\n'
    )
    natural = "import math\n\n\ndef power(base, exponent):\n    return math.pow(base, exponent)\n"
    wrote = {"calc/ops.py": natural, "calc/cli.py": "def main():\n    print('pow')\n"}
    ran = state(tmp_path, {**wrote, test_path: test}, ticket)
    ran["tests"] = TestReport(
        passed=True, exit_code=0, output="", passed_tests=[f"{test_path}::test_criterion_1"]
    )
    assert missing_work(ran) == []  # type: ignore[arg-type]
    ran["tests"] = TestReport(passed=True, exit_code=0, output="", passed_tests=[])
    assert [f.instruction for f in missing_work(ran)] == [  # type: ignore[arg-type]
        f'raises no `ValueError`; the ticket says: "{criterion}"'
    ]


def test_a_planned_file_whose_code_is_unchanged_lacks_its_work(tmp_path: Path) -> None:
    lacking = "changes only comments, docstrings or layout, no code; the plan: Add power."
    commented = "# Power lives beside add.\ndef add(a, b):\n\n    return a + b  # the sum\n"
    wrote = {"calc/ops.py": commented, "calc/cli.py": "def main():\n    print('pow')\n"}
    missing = missing_work(state(tmp_path, wrote))  # type: ignore[arg-type]
    assert ("calc/ops.py", lacking) in [(f.path, f.instruction) for f in missing]
    # A docstring is text, not behaviour: one echoing the plan does not do its work.
    documented = '"""Add power."""\n\n\ndef add(a, b):\n    """The sum."""\n    return a + b\n'
    wrote["calc/ops.py"] = documented
    missing = missing_work(state(tmp_path, wrote))  # type: ignore[arg-type]
    assert ("calc/ops.py", lacking) in [(f.path, f.instruction) for f in missing]
    wrote["calc/ops.py"] = documented + "\n\ndef power(a, b):\n    return a**b\n"
    instructions = [f.instruction for f in missing_work(state(tmp_path, wrote))]  # type: ignore[arg-type]
    assert not any("no code" in i for i in instructions)
