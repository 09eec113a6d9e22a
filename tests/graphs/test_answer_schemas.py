"""Every answer schema the graphs ask for is accepted by OpenAI's strict structured outputs."""

from typing import Any

import pytest
from openai.lib._parsing._completions import type_to_response_format_param
from pydantic import BaseModel

from graphs.analysis.nodes import AnalysisAnswer
from graphs.implementation.state import ReviewAnswer
from graphs.planning.nodes import PlanAnswer
from graphs.refinement.nodes import QuestionsAnswer, RequirementsAnswer
from graphs.review.judging import Verdicts


def problems(node: Any, path: str = "$") -> list[str]:
    """What strict mode would refuse: defaults, open objects; plus lists without a bound."""
    found: list[str] = []
    if isinstance(node, dict):
        if node.get("type") == "object" and "properties" in node:
            if set(node.get("required", [])) != set(node["properties"]):
                found.append(f"{path}: not every property is required")
            if node.get("additionalProperties") is not False:
                found.append(f"{path}: additional properties allowed")
        if node.get("type") == "array" and "maxItems" not in node:
            found.append(f"{path}: a list without maxItems")
        if "default" in node:
            found.append(f"{path}: a default")
        for key, value in node.items():
            found += problems(value, f"{path}.{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += problems(value, f"{path}[{index}]")
    return found


@pytest.mark.parametrize(
    "schema",
    [AnalysisAnswer, QuestionsAnswer, RequirementsAnswer, PlanAnswer, ReviewAnswer, Verdicts],
)
def test_answer_schema_is_strict_and_bounded(schema: type[BaseModel]) -> None:
    sent = type_to_response_format_param(schema)  # what ChatOpenAI sends for a pydantic schema
    assert isinstance(sent, dict) and sent["json_schema"]["strict"] is True
    assert problems(sent["json_schema"]["schema"]) == []


def test_requirements_default_applies_when_a_model_leaves_it_out() -> None:
    answer = RequirementsAnswer.model_validate({"requirements": ["a"], "acceptance_criteria": []})
    assert answer.clear is True and answer.followup_questions == []
