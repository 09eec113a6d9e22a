"""Every answer schema the ticket's steps ask for bounds its strings and lists, so a local
server's grammar stops a looping answer where the schema ends."""

from typing import Any

import pytest
from pydantic import BaseModel

from graphs.analysis.state import AnalysisAnswer
from graphs.implementation.criteria.checks import Checks
from graphs.implementation.state import ReviewAnswer
from graphs.planning.state import SUMMARY_CHARS, PlanAnswer
from graphs.planning.triage import TriageAnswer
from graphs.refinement.state import QuestionsAnswer, RequirementsAnswer


def unbounded(schema: dict[str, Any], defs: dict[str, Any], where: str = "") -> list[str]:
    """The places in a JSON schema holding a string or a list without a maximum length."""
    if "$ref" in schema:
        return unbounded(defs[schema["$ref"].rsplit("/", 1)[-1]], defs, where)
    found: list[str] = []
    kind = schema.get("type")
    if kind == "string" and "maxLength" not in schema and "enum" not in schema:
        found.append(where or "the answer")
    if kind == "array":
        if "maxItems" not in schema:
            found.append(where)
        found += unbounded(schema.get("items", {}), defs, f"{where}[]")
    for name, sub in schema.get("properties", {}).items():
        found += unbounded(sub, defs, f"{where}.{name}")
    for sub in schema.get("anyOf", []):
        found += unbounded(sub, defs, where)
    return found


@pytest.mark.parametrize(
    "schema",
    [
        AnalysisAnswer,
        QuestionsAnswer,
        RequirementsAnswer,
        TriageAnswer,
        PlanAnswer,
        ReviewAnswer,
        Checks,
    ],  # fmt: skip
)
def test_every_string_and_list_of_an_answer_is_bounded(schema: type[BaseModel]) -> None:
    json_schema = schema.model_json_schema()
    assert unbounded(json_schema, json_schema.get("$defs", {})) == []


def test_a_longer_string_is_cut_to_its_bound_not_refused() -> None:
    long = "x" * 5000
    answer = RequirementsAnswer.model_validate(
        {"requirements": [long], "acceptance_criteria": [], "followup_questions": [
            {"text": long, "why": "open"}
        ]}
    )  # fmt: skip
    assert len(answer.requirements[0]) == 400 and len(answer.followup_questions[0].text) == 400
    assert len(AnalysisAnswer.model_validate({"summary": long}).summary) == 800


def test_a_review_is_cut_to_its_bounds_and_kept_as_the_loop_keeps_it() -> None:
    long = "The change meets the ticket. " * 100
    fix = {"path": "a.py", "instruction": long}
    answer = ReviewAnswer.model_validate({"passed": False, "summary": long, "fixes": [fix] * 12})
    review = answer.review()
    assert len(review.summary) == SUMMARY_CHARS and len(review.fixes) == 10
    assert len(review.fixes[0].instruction) == 400 and review.fixes[0].path == "a.py"
