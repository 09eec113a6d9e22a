"""The outline of an answer's schema that a model reads in place of the JSON schema."""

from typing import Literal

from pydantic import BaseModel, Field

from graphs.planning.state import PlanAnswer
from llm.answer_shape import json_schema_outline, outline
from llm.structured import schema_instructions


class Step(BaseModel):
    """A class docstring the model never needs."""

    path: str = Field(max_length=200)
    action: Literal["create", "modify"]


class Answer(BaseModel):
    summary: str = Field(max_length=800, description="Two sentences: the approach")
    steps: list[Step] = Field(max_length=5)
    score: int = Field(ge=1, le=5)
    note: str | None = None
    tags: dict[str, int] = {}


def test_outline_names_every_key_with_its_type_bound_and_note():
    text = outline(Answer)

    assert '"summary": string,  // Two sentences: the approach' in text
    assert '"path": string,' in text
    assert '"action": "create" | "modify"' in text
    assert "(max 5 items)" in text
    assert '"score": integer 1-5,' in text
    assert '"note" (optional): string | null,' in text
    assert '"tags" (optional): {string: integer}' in text


def test_outline_leaves_out_what_only_a_reader_of_the_code_needs():
    text = outline(Answer)

    assert "docstring" not in text
    assert "$ref" not in text and "title" not in text.lower()
    assert text.rstrip().endswith("}")
    assert not text.rstrip("}\n ").endswith(",")  # no comma after the last key


def test_plan_instructions_are_less_than_half_the_json_schema():
    """The plan's schema was about 650 of its prompt's 2,000 tokens on the local model."""
    compact = PlanAnswer.model_json_schema()
    instructions = schema_instructions(PlanAnswer)

    assert len(instructions) < len(str(compact)) / 2
    for key in PlanAnswer.model_fields:
        assert f'"{key}"' in instructions


def test_outline_reads_the_other_ways_a_schema_writes_a_type():
    schema = {
        "type": "object",
        "properties": {
            "name": {"type": ["string", "null"]},
            "step": {"allOf": [{"$ref": "#/$defs/Step"}], "description": "The step"},
        },
        "required": ["name", "step"],
        "$defs": {"Step": {"type": "object", "properties": {"path": {"type": "string"}}}},
    }
    text = json_schema_outline(schema)

    assert '"name": string | null,' in text
    assert '"step": {' in text and '"path" (optional): string' in text
    assert "}  // The step" in text
